package dev.hoplock.nats;

import dev.hoplock.core.backend.Handle;

import java.security.SecureRandom;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * Revisions as handles. A KV entry's revision is the stream sequence of its message: it rises with every write to the
 * bucket and never repeats <em>within one life of the bucket</em>. A bucket deleted and created again starts its
 * sequence again at 1, so a holder that slept through the re-creation could find its old revision current again on a
 * new holder's record. hoplock therefore uses only revisions of at least {@link #FLOOR}: a bucket it creates starts at
 * a random revision between {@link #FIRST_MIN} and {@link #FIRST_MAX} (by a purge to that sequence while the
 * stream is empty, see {@link BucketSetup}), so two lives of a bucket share no revision unless their ranges meet
 * (probability about writes / 2^52 per re-creation), and a bucket that numbers from 1 (created by hand without that
 * step, or re-created so while hoplock runs) is refused at start and at every answer that shows such a revision.
 *
 * <p>The handle is the revision in decimal, for example {@code 281474976710656}. A handle this backend did not make
 * matches no version.
 */
final class Revisions {

    /** The lowest revision hoplock uses (2^40): a bucket that numbers from 1 would need 10^12 writes to reach it. */
    static final long FLOOR = 1L << 40;
    /** The lowest first revision of a bucket hoplock creates (2^48). */
    static final long FIRST_MIN = 1L << 48;
    /** The highest first revision of a bucket hoplock creates, exclusive (2^52). */
    static final long FIRST_MAX = 1L << 52;

    private static final Pattern DIGITS = Pattern.compile("[1-9][0-9]{0,18}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private Revisions() {
    }

    static Handle handle(long revision) {
        return Handle.of(Long.toString(revision));
    }

    /** The revision in {@code handle}, or empty for a handle this backend did not make. */
    static OptionalLong parse(Handle handle) {
        String value = handle.value();
        if (!DIGITS.matcher(value).matches()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(value));
        } catch (NumberFormatException tooLarge) {
            return OptionalLong.empty();
        }
    }

    /** A random first revision for a new bucket, in [{@link #FIRST_MIN}, {@link #FIRST_MAX}). */
    static long randomFirst() {
        return RANDOM.nextLong(FIRST_MIN, FIRST_MAX);
    }

    static boolean usable(long revision) {
        return revision >= FLOOR;
    }
}
