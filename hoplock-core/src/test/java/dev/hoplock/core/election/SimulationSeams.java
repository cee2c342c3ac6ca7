package dev.hoplock.core.election;

import dev.hoplock.core.time.Scheduler;

/**
 * Package-private settings of {@link Elector.Builder} that the deterministic simulation ({@code dev.hoplock.core.sim})
 * needs: test code only, so that nothing of the elector's public API exists for the simulation's sake.
 */
public final class SimulationSeams {

    private SimulationSeams() {
    }

    /**
     * Where the elector runs a timer that its scheduler refused. The simulation passes a scheduler on the process's own
     * virtual clock, so that no real thread (the default fallback) ever runs simulated code.
     */
    public static Elector.Builder fallbackScheduler(Elector.Builder builder, Scheduler fallback) {
        return builder.fallbackScheduler(fallback);
    }
}
