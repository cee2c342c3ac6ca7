package dev.hoplock.core.election;

/**
 * Where an elector stands with its store's verification ({@link dev.hoplock.core.backend.Backend#verify()}), which it
 * runs before it campaigns (rule 0 of the {@link Elector}'s safety argument).
 *
 * <p>Guarantees: an elector writes to its store only in {@link #VERIFIED}; {@link #REFUSED} is final for that
 * elector (only a change of store or configuration, and a new elector, helps).
 */
public enum StoreVerification {
    /**
     * Not verified yet: the verification is running, or the store could not be asked (unreachable, access denied, a
     * missing bucket or table); it is retried every poll.
     */
    VERIFYING,
    /** The store has every capability this elector needs: it campaigns. */
    VERIFIED,
    /**
     * The store lacks a conditional request this elector needs: this elector never campaigns on it and makes no
     * further requests. The status says why.
     */
    REFUSED
}
