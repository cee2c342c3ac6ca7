package dev.hoplock.core.backend;

/**
 * What a store promises about a write it has acknowledged, as its {@link Backend#verify()} found it: whether a restart
 * of the store or a failover to a replica can lose it. Reported only by stores whose durability depends on how the
 * server is run (Redis: persistence and asynchronous replication); a store that does not report it
 * ({@link StoreCapabilities#durability()} null) keeps acknowledged writes by its own contract (S3, a database commit,
 * a synced file).
 *
 * <p>A lost write is, for the lease layer, an outside change of the record: a process that saw the lost version detects
 * it (its renewal is refused, or the record it watches changes) and steps down or waits; a process that never saw it
 * may take the lease at once, while the holder still leads until its next renewal is refused. So below {@link #KEPT},
 * two holders at once are possible after a restart or failover, for at most the holder's remaining lease. The constants
 * are ordered from weakest to strongest.
 */
public enum Durability {
    /** A restart of the store (process or machine) can lose acknowledged writes: no persistence that covers each one. */
    LOST_ON_RESTART("lost on restart"),
    /** A restart keeps them, but a failover to a replica can lose them: replication is asynchronous. */
    LOST_ON_FAILOVER("lost on failover"),
    /** Kept across a restart and a failover, as far as the store's settings and this backend's waits promise. */
    KEPT("kept");

    private final String phrase;

    Durability(String phrase) {
        this.phrase = phrase;
    }

    /** A phrase for messages, for example "lost on failover". */
    public String phrase() {
        return phrase;
    }

    /** True when this promise is at least as strong as {@code minimum}. */
    public boolean atLeast(Durability minimum) {
        return compareTo(minimum) >= 0;
    }
}
