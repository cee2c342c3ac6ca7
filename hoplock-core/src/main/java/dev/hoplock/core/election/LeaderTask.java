package dev.hoplock.core.election;

/** Work that must run only while this process leads; see {@link Elector#lead(LeaderTask)}. */
@FunctionalInterface
public interface LeaderTask {

    /**
     * Runs while leading. Must stop promptly when its thread is interrupted or {@link LeaderContext#isLeading()}
     * turns false, and should stamp downstream writes with {@link LeaderContext#lease()}'s generation.
     */
    void run(LeaderContext context) throws Exception;
}
