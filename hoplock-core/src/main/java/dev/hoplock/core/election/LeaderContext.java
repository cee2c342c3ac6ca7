package dev.hoplock.core.election;

import dev.hoplock.core.Lease;

import java.time.Duration;

/**
 * What leader work can ask while it runs. Reads local state only: no call here touches the store.
 */
public interface LeaderContext {

    /** The lease this work runs under, updated at every renewal; its generation never changes within a term. */
    Lease lease();

    /** True until the term ends (loss, deadline, step-down or stop). */
    boolean isLeading();

    /** Time left until the self-fencing deadline; zero once the term ended. */
    Duration timeLeft();

    /**
     * Throws {@link LeadershipLostException} when the term has ended, so that long work can check between steps.
     */
    default void checkLeading() {
        if (!isLeading()) {
            throw new LeadershipLostException("leadership of '" + lease().key() + "' at generation "
                    + lease().generation() + " has ended");
        }
    }
}
