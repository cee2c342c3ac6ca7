package dev.hoplock.core.sim;

/** A broken invariant or a missed liveness bound in one schedule; the message carries the seed and the trace. */
final class SimulationFailure extends AssertionError {

    private static final long serialVersionUID = 1L;

    SimulationFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
