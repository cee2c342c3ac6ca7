package dev.hoplock.core.internal.lease;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.record.LeaseRecord;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Rule 5 of the {@link Elector}'s safety argument, <em>unknown outcomes</em>: the writes of this process whose outcome
 * is unknown, and the adoption of one when a read proves it happened.
 *
 * <p>A write without an answer may have happened. So may a refused one: a client library that retries a write whose
 * answer was lost meets the version its first attempt created (412), and a 409 leaves the version this process held in
 * place. Each such write is remembered with the monotonic {@code t0} taken before it was sent and the TTL it was
 * written with.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>{@link #provablyOurs} returns a remembered write only if the record read has exactly its owner, generation and
 *       a non-empty nonce equal to it; validity of an adopted version then counts from that write's {@code t0} for that
 *       write's TTL, both kept with the write (a named lock's calls may ask for different TTLs, and a refused long
 *       extension may find a short write of ours: it must count the short one, however many writes came since);</li>
 *   <li>once a read shows another writer's version, {@link #otherWriterSeen()} forgets every write: a swap of ours named
 *       an older handle and can never land now, and a create of ours could land only after someone deletes that
 *       version, while its holder may still lead. None of them may be adopted later;</li>
 *   <li>at most {@value #MAX_REMEMBERED} writes are remembered; the oldest is forgotten first (forgetting only ever
 *       makes this process wait longer: an unadopted version of ours is taken over like anyone's).</li>
 * </ul>
 * Not thread-safe: used under its owner's lock. Internal to {@code dev.hoplock.core}; shared by the elector and named
 * locks.
 * <p>Implements E5; text in {@link Elector}.
 */
public final class UnknownWrites {

    /** The most writes of unknown outcome remembered at once. */
    public static final int MAX_REMEMBERED = 16;

    /**
     * A write whose outcome is unknown, kept until a read tells whether it happened.
     *
     * @param record what was written
     * @param t0     the monotonic time taken before it was sent
     * @param ttl    the TTL it was written with ({@code expires_at = wall(t0) + ttl}): an adoption counts exactly this
     */
    public record Write(LeaseRecord record, long t0, Duration ttl) {
    }

    private final Deque<Write> writes = new ArrayDeque<>();

    /** A write got no answer (an error, a timeout): it may have happened. {@code ttl}: the TTL it was written with. */
    public void remember(LeaseRecord record, long t0, Duration ttl) {
        writes.addLast(new Write(record, t0, ttl));
        while (writes.size() > MAX_REMEMBERED) {
            writes.removeFirst();
        }
    }

    /**
     * A write was refused. Two versions are then provably ours if a read finds them: the one we held ({@code held},
     * null if none: a 409 ConditionalRequestConflict changes nothing) and the refused write itself (a retried write
     * meets its own first attempt). Both are remembered, each with its own {@code t0} and TTL, so the next read adopts
     * them instead of waiting a TTL for our own record.
     */
    public void refused(@Nullable Owned held, LeaseRecord refused, long t0, Duration ttl) {
        if (held != null) {
            remember(held.record(), held.t0(), held.ttl());
        }
        remember(refused, t0, ttl);
    }

    /** The remembered write that {@code found} proves happened (owner, generation and nonce match), or null. */
    public @Nullable Write provablyOurs(LeaseRecord found) {
        for (Write write : writes) {
            LeaseRecord mine = write.record();
            if (!mine.nonce().isEmpty() && mine.nonce().equals(found.nonce()) && mine.owner().equals(found.owner())
                    && mine.generation() == found.generation()) {
                return write;
            }
        }
        return null;
    }

    /** A read showed another writer's version (or a corrupt one): no write of unknown outcome may be adopted any more. */
    public void otherWriterSeen() {
        writes.clear();
    }

    /** A write of ours answered (or one was adopted): the outcome of every earlier one no longer matters. */
    public void settled() {
        writes.clear();
    }

    /** True when no write's outcome is unknown. */
    public boolean isEmpty() {
        return writes.isEmpty();
    }
}
