package dev.hoplock.spring.actuate;

import dev.hoplock.core.Elector;
import dev.hoplock.spring.HoplockElections;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import java.util.Optional;

/**
 * The {@code hoplock} endpoint with its write operation: {@code POST /actuator/hoplock/{name}} makes this instance
 * step down from {@code name} if it leads it (the lease is released; this instance does not campaign again for one
 * TTL). Present only when {@code hoplock.endpoint.step-down-enabled=true}, and reachable over HTTP only when the
 * endpoint is also exposed.
 */
@Endpoint(id = "hoplock")
public class HoplockStepDownEndpoint extends HoplockEndpoint {

    public HoplockStepDownEndpoint(HoplockElections elections) {
        super(elections);
    }

    /**
     * Steps down from {@code name}; over HTTP a 404 whose body names the elections that exist when there is no such
     * election (never a 204 that would look like success).
     */
    @WriteOperation
    public WebEndpointResponse<Object> stepDown(@Selector String name) {
        Optional<Elector> elector = electionsRegistry().find(name);
        if (elector.isEmpty()) {
            return noSuchElection(name);
        }
        boolean stepped = elector.get().stepDown();
        return new WebEndpointResponse<>(new StepDownResult(name, stepped, stepped
                ? "stepped down; the lease is released"
                : "this instance does not lead '" + name + "'; nothing to do"));
    }

    /**
     * The outcome of a step-down request.
     *
     * @param election    the election
     * @param steppedDown whether this instance was leading and stepped down
     * @param message     what happened
     */
    public record StepDownResult(String election, boolean steppedDown, String message) {
    }
}
