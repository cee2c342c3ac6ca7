package dev.hoplock.core.election;

import dev.hoplock.core.Holder;
import dev.hoplock.core.Lease;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Something that happened to an election, as seen by one elector.
 *
 * <p>Delivery guarantees: each subscriber sees events in the order they happened, and {@link Acquired} and
 * {@link Lost} alternate (no two Acquired without a Lost in between). A subscriber that falls behind has a bounded
 * queue: {@link Renewed} and {@link LeaderObserved} are dropped first, then other events except Acquired and Lost;
 * Acquired and Lost are dropped only as a pair (a whole missed term), so what it sees still alternates. Every drop is
 * announced by one {@link Problem} of kind {@link ProblemKind#EVENTS_DROPPED}. Events are delivered after the state
 * change: when a subscriber sees {@link Lost}, {@link Elector#isLeader()} already answers false.
 */
public sealed interface ElectionEvent
        permits ElectionEvent.Acquired, ElectionEvent.Renewed, ElectionEvent.Lost, ElectionEvent.LeaderObserved,
        ElectionEvent.Problem {

    /** The lease key of the election. */
    String key();

    /** When it happened, by the elector's wall clock. */
    Instant at();

    /** This process became leader. */
    record Acquired(String key, Instant at, Lease lease) implements ElectionEvent {
        public Acquired {
            Objects.requireNonNull(lease, "lease");
        }
    }

    /** This process extended its lease. */
    record Renewed(String key, Instant at, Lease lease) implements ElectionEvent {
    }

    /** This process stopped leading; leader work has been told to stop. */
    record Lost(String key, Instant at, Lease lease, LossCause cause, String detail) implements ElectionEvent {
    }

    /**
     * The holder seen in the store changed (another node, this node, or nobody). Followers get this when a new
     * leader appears; {@code holder} is empty when the lease is free.
     */
    record LeaderObserved(String key, Instant at, Optional<Holder> holder) implements ElectionEvent {
    }

    /** Something needs attention; the message names the cause and the fix. */
    record Problem(String key, Instant at, ProblemKind kind, String message) implements ElectionEvent {
    }

    /** The kinds of {@link Problem}. */
    enum ProblemKind {
        /** The stored object is not a valid lease record; it counts as held until unchanged for a whole TTL. */
        CORRUPT_RECORD,
        /** A record expires more than twice the TTL ahead: some writer's clock runs fast, or its TTL is long. */
        CLOCK_SKEW,
        /** The stored generation went down: someone deleted or rewrote the record outside the protocol. */
        GENERATION_REGRESSED,
        /**
         * A backend request failed; see the message. Also a verification of the store that could not ask it: the
         * elector retries it every poll and campaigns only once it passed.
         */
        BACKEND_ERROR,
        /**
         * The store's verification ({@link dev.hoplock.core.backend.Backend#verify()}) found it lacks a conditional
         * request this elector needs ({@link dev.hoplock.core.backend.StoreCapabilities#requireFor(boolean)}): the
         * elector never campaigns on it. The message names the capability, what the probe saw and the fix. Also a store
         * that answered a conditional request with 501 Not Implemented during the verification.
         */
        CONDITIONAL_WRITES_NOT_SUPPORTED,
        /**
         * A record seen held disappeared from the store without a release by this process: it was deleted outside
         * hoplock (an operator, a lifecycle rule, a sync tool) or released by a delete (Go hoplock, {@code
         * releaseByDelete}). The key counts as held until it has stayed absent for a whole TTL (at least), counted
         * from the first read that found it absent, and the expiry it showed has passed.
         */
        RECORD_DELETED,
        /**
         * The elector's {@code Scheduler} threw when given a timer; the elector ran that timer on its fallback timer
         * thread instead. Fix the scheduler (shut down too early? a bounded queue?) or leave it unset.
         */
        SCHEDULER_ERROR,
        /**
         * This subscriber fell so far behind that its queue overflowed and events were dropped (the message says how
         * many); see {@code EventHub} for what is kept. Delivered in place of the first dropped event.
         */
        EVENTS_DROPPED
    }
}
