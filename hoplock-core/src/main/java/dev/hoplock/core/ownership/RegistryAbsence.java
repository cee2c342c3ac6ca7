package dev.hoplock.core.ownership;

/**
 * Rule M9, the re-creation part: when this member may create the group's registry. A member that never saw the
 * registry may create it at once (the group is new); one that saw it re-creates it only after a whole {@code ttl} of
 * observed absence on its monotonic clock, when every view confirmed before the deletion has lapsed (M2).
 *
 * <p>Guarantees: the absence is timed from the answer of the first read that found the registry missing, and any read
 * that finds it present restarts the count. Called under the membership loop's lock.
 */
final class RegistryAbsence {

    private final long ttlNanos;
    private boolean sawRegistry;
    private boolean absentSeen;
    private long absentSinceNanos;

    RegistryAbsence(long ttlNanos) {
        this.ttlNanos = ttlNanos;
    }

    /** A read found the registry present. */
    void present() {
        absentSeen = false;
    }

    /** The registry was read and decoded: from now on it is only re-created after a TTL of absence. */
    void decoded() {
        sawRegistry = true;
    }

    /** A read answered at {@code answered} (monotonic) found no registry. */
    void absent(long answered) {
        if (!absentSeen) {
            absentSeen = true;
            absentSinceNanos = answered;
        }
    }

    /** Rule M9: true when this member may create the registry after the read answered at {@code answered}. */
    boolean mayCreate(long answered) {
        return !sawRegistry || answered - absentSinceNanos >= ttlNanos;
    }

    /** True when this member saw the registry before (its absence is then a problem to report). */
    boolean sawRegistry() {
        return sawRegistry;
    }
}
