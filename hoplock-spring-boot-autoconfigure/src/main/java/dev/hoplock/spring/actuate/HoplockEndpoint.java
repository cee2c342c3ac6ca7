package dev.hoplock.spring.actuate;

import dev.hoplock.spring.HoplockElections;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import java.util.LinkedHashMap;
import java.util.List;
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

    /**
     * One election's state; over HTTP a 404 whose body names the elections that exist when there is no such
     * election.
     */
    @ReadOperation
    public WebEndpointResponse<Object> election(@Selector String name) {
        return elections.find(name)
                .<WebEndpointResponse<Object>>map(elector -> new WebEndpointResponse<>(ElectionDescriptor.of(name,
                        elector)))
                .orElseGet(() -> noSuchElection(name));
    }

    /** The 404 answer for an election name that is not configured: says which ones are. */
    protected WebEndpointResponse<Object> noSuchElection(String name) {
        return new WebEndpointResponse<>(new NoSuchElection(name, List.copyOf(elections.names()),
                "no election '" + name + "' is configured here; configured: " + elections.names()),
                WebEndpointResponse.STATUS_NOT_FOUND);
    }

    protected HoplockElections electionsRegistry() {
        return elections;
    }

    /**
     * The body of a 404: the name asked for and the elections that exist.
     *
     * @param election  the name asked for
     * @param elections the configured election names
     * @param message   what went wrong, for people
     */
    public record NoSuchElection(String election, List<String> elections, String message) {
    }
}
