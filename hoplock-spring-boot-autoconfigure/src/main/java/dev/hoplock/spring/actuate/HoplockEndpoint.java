package dev.hoplock.spring.actuate;

import dev.hoplock.spring.HoplockElections;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code hoplock} actuator endpoint, read-only: {@code GET /actuator/hoplock} lists every election's state
 * ({@link ElectionDescriptor}), {@code GET /actuator/hoplock/{name}} shows one. No store request, no secrets.
 * The step-down operation lives in {@link HoplockStepDownEndpoint}, used instead of this one only when
 * {@code hoplock.endpoint.step-down-enabled=true}.
 */
@Endpoint(id = "hoplock")
public class HoplockEndpoint {

    private final HoplockElections elections;

    public HoplockEndpoint(HoplockElections elections) {
        this.elections = elections;
    }

    /** Every election's state, by name. */
    @ReadOperation
    public Map<String, ElectionDescriptor> elections() {
        Map<String, ElectionDescriptor> result = new LinkedHashMap<>();
        elections.asMap().forEach((name, elector) -> result.put(name, ElectionDescriptor.of(name, elector)));
        return result;
    }

    /** One election's state; null (404) when there is no such election. */
    @ReadOperation
    public ElectionDescriptor election(@Selector String name) {
        return elections.find(name).map(elector -> ElectionDescriptor.of(name, elector)).orElse(null);
    }

    protected HoplockElections electionsRegistry() {
        return elections;
    }
}
