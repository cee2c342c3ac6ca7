package dev.hoplock.spring.observation;

import io.micrometer.observation.Observation;

/**
 * The names, keys and events of hoplock's observations, in one place (docs/spring-boot.md, "Traces", lists them too).
 *
 * <p>Guarantees: low-cardinality keys only take values from a bounded set fixed by the configuration (store kind,
 * primitive, election, group or {@code locks}, operation, outcome, method, cause); lease keys, lock names, ownership
 * keys, owner ids and store addresses are never recorded, in either kind of key. High-cardinality keys carry numbers
 * only (epoch, generation, counts of keys and members).
 */
public final class HoplockObservations {

    /** One request to the store: a read, write, delete or the store's verification. */
    public static final String STORE_REQUEST = "hoplock.store.request";
    /** One term of a lease this instance holds: from its acquisition to its release or loss. */
    public static final String LEASE = "hoplock.lease";
    /** A {@code @LeaderOnly} call that ran (a skipped one is an event on the current observation). */
    public static final String LEADER_ONLY = "hoplock.leader-only";
    /** A {@code @WithLock} call: waiting for the lock and holding it (child {@link #WITH_LOCK_HOLD}). */
    public static final String WITH_LOCK = "hoplock.with-lock";
    /** The hold of a {@code @WithLock} call: from the acquisition to the end of the call. */
    public static final String WITH_LOCK_HOLD = "hoplock.with-lock.hold";
    /** A membership change of the ownership group, as this instance adopted it. */
    public static final String MEMBERSHIP_CHANGE = "hoplock.membership.change";

    /** Low-cardinality key: the store kind ({@code s3}, {@code jdbc}, {@code redis}, {@code memory}, ...). */
    public static final String STORE = "store";
    /** Low-cardinality key: {@code election}, {@code lock} or {@code ownership}. */
    public static final String PRIMITIVE = "primitive";
    /** Low-cardinality key: the election's name, {@code locks}, or the ownership group's name. */
    public static final String NAME = "name";
    /** Low-cardinality key: {@code read}, {@code write}, {@code delete}, {@code verify}. */
    public static final String OPERATION = "operation";
    /**
     * Low-cardinality key. Store requests: {@code applied} (answered; for a write or delete: done), {@code refused}
     * (a condition failed), {@code unknown} (a write or delete without an answer: it may have happened), {@code error}
     * (a read or verification without an answer). Leases: {@code released}, {@code lost} or {@code closed}.
     * {@code @WithLock}: {@code ran}, {@code held_elsewhere}, {@code held_here}, {@code unavailable}, {@code error}.
     */
    public static final String OUTCOME = "outcome";
    /**
     * Low-cardinality key of store requests: what the store answered, as {@code hoplock.backend.requests} names it
     * ({@code found}, {@code absent}, {@code written}, {@code deleted}, {@code precondition_failed}, {@code not_found},
     * {@code verified}, {@code error}).
     */
    public static final String RESULT = "result";
    /**
     * Low-cardinality key of leases: {@code takeover} (an election's lease taken from another holder seen here),
     * {@code free}, or {@code unknown} (named locks).
     */
    public static final String ACQUISITION = "acquisition";
    /**
     * Low-cardinality key of a lease at its end: the cause ({@code stepped_down}, {@code stopped}, {@code released},
     * {@code taken_over}, {@code deadline_passed}, {@code deleted}, ..., {@code closed}).
     */
    public static final String CAUSE = "cause";
    /** Low-cardinality key of the gates: the election ({@code ownership:GROUP} for a keyed gate). */
    public static final String ELECTION = "election";
    /** Low-cardinality key of the gates: {@code SimpleClassName.method}. */
    public static final String METHOD = "method";
    /** Low-cardinality key of {@code @WithLock} and leases of locks: whether the lock ended before the call did. */
    public static final String LOST = "lost";
    /** Low-cardinality key of membership changes: the ownership group. */
    public static final String GROUP = "group";

    /** High-cardinality key: the lease's generation (fencing token) at acquisition. */
    public static final String GENERATION = "generation";
    /** High-cardinality key: the membership epoch. */
    public static final String EPOCH = "epoch";
    /** High-cardinality key: how many of the keys seen here this instance gained. */
    public static final String KEYS_GAINED = "keys.gained";
    /** High-cardinality key: how many of the keys seen here this instance lost. */
    public static final String KEYS_LOST = "keys.lost";
    /** High-cardinality key: how many of the keys seen here changed owner. */
    public static final String KEYS_MOVED = "keys.moved";
    /** High-cardinality key: the number of members now. */
    public static final String MEMBERS = "members";
    /** High-cardinality key: members that joined. */
    public static final String MEMBERS_JOINED = "members.joined";
    /** High-cardinality key: members that left. */
    public static final String MEMBERS_LEFT = "members.left";

    /** Event of a {@link #LEASE} observation: the lease was renewed (extended). */
    public static final Observation.Event RENEWED = Observation.Event.of("hoplock.lease.renewed", "renewed");
    /** Event of a {@link #WITH_LOCK} observation: the lock was taken, the hold begins. */
    public static final Observation.Event LOCK_ACQUIRED = Observation.Event.of("hoplock.with-lock.acquired",
            "lock acquired");
    /** Event on the current observation: a {@code @LeaderOnly} call was skipped here (no span of its own). */
    public static final Observation.Event SKIPPED = Observation.Event.of("hoplock.leader-only.skipped",
            "skipped: not the leader");

    private HoplockObservations() {
    }
}
