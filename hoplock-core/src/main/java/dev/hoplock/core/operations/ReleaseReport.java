package dev.hoplock.core.operations;

import org.jspecify.annotations.Nullable;

import java.time.Duration;

/**
 * What a {@link StuckLeaseRelease} did with one key, and why.
 *
 * <p>Guarantees: {@code written} is set exactly for {@link Outcome#RELEASED}; {@code first} is what the first read
 * found; {@code last} is what the last read found (the same as {@code first} when only one read was made); the
 * {@link #message()} names the key, what was observed, and what was written or why nothing was. Immutable.
 *
 * @param key      the lease key
 * @param outcome  what happened
 * @param first    the first read's view
 * @param last     the last read's view
 * @param observed how long the version released (or the last one seen) stayed unchanged on this machine's monotonic
 *                 clock
 * @param written  the released record as written, or null when nothing was written
 * @param message  the explanation for people
 */
public record ReleaseReport(String key, Outcome outcome, LeaseRecordView first, LeaseRecordView last,
                            Duration observed, @Nullable LeaseRecordView written, String message) {

    /** What became of a release. */
    public enum Outcome {
        /** The released record was written, conditional on the version observed unchanged. */
        RELEASED,
        /** Nothing to release: the key is absent or already released. Nothing was written. */
        NOTHING_TO_RELEASE,
        /**
         * Refused before the write: the record changed while it was observed (a live holder renewed, or another node
         * took it or released it), it disappeared, or it is corrupt, or its expiry lies so far ahead that the
         * observation needs the caller's word that it was written by a skewed clock. Nothing was written.
         */
        REFUSED,
        /** The conditional write was refused: the record changed between the last read and the write. */
        WRITE_REFUSED,
        /**
         * The store did not answer a read (nothing was written) or the write (its outcome is unknown: show the key
         * again).
         */
        FAILED
    }

    /** True when the released record was written. */
    public boolean released() {
        return outcome == Outcome.RELEASED;
    }
}
