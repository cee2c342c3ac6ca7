package dev.hoplock.core.ownership;

import org.jspecify.annotations.Nullable;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One membership epoch as this instance adopted it, and the per-key answers computed over it: what the hot path reads.
 *
 * <p>Immutable apart from three facts that only ever move one way or are re-confirmed: whether the epoch is settled
 * (rule M3), until when the view may be acted under (rule M2), and the per-key cache. Readable without locks.
 *
 * <p><b>The chain (rules M4, M8).</b> A view continues the chain of the view adopted just before it when that one is
 * exactly one epoch lower, of the same registry incarnation, and both carry this process's registration at the same
 * lease generation (rule M1: the entry's process is this process, not only its generation). Every other adoption
 * starts a new chain at its own epoch. For the chain, this view keeps a compact state: the epoch the chain starts at,
 * and for each member id present at some epoch of the chain but not at this one, the last epoch of the chain it was
 * present at. The token of a key this instance owns here ({@link #acquiredAt}) is then
 * {@code max(chainStart, 1 + max{lastSeen[m] : m outranks this member for the key})}: the first epoch after the last
 * one at which a member that outranks this one was present, i.e. the epoch at which this instance's continuous
 * ownership began. It is a function of the membership history alone, whichever keys were asked about and however many
 * changes ago the ownership began; the per-key cache only saves hashing, and clearing it changes no answer.
 *
 * <p><b>Memory limit.</b> The state holds one entry per member id that left during the unbroken chain, up to
 * {@link #MAX_DEPARTED} of them (with generated member ids every restart of a member is a new id). Beyond that, the
 * entries with the oldest last epochs are folded into the chain start, which then rises to the epoch after them: a key
 * whose ownership began before one of those members left gets that later epoch as its token (still no higher than the
 * epoch it is acted under and, by M8's argument, above the token of any earlier owner), so M8's "a key that did not
 * move keeps its token" holds exactly for chains in which at most {@value #MAX_DEPARTED} member ids departed. A token
 * computation not in the cache costs one SHA-256 per departed id kept, plus the owner computation over the view.
 *
 * <p>For M4, views of the chain are kept linked back to the newest one that is settled: older ones are not needed
 * (a key owned since before a settled epoch was actionable at it), so the link is bounded by the epochs adopted within
 * one hand-over grace.
 */
final class EpochView {

    static final long NOT_OWNER = -1;
    /** The most departed member ids one chain remembers exactly (see the memory limit above). */
    static final int MAX_DEPARTED = 1024;
    private static final int CACHE_CAPACITY = OwnerCache.DEFAULT_CAPACITY;
    /** How far back the planted defect {@link GroupConfig.Defect#TOKEN_LOOKS_BACK_FOUR} lets a token look. */
    private static final int DEFECT_LOOK_BACK = 4;

    final Registry registry;
    final MembershipView view;
    final long epoch;
    /** This member id's index in {@link #view}, or -1 when the id is not in it. */
    final int selfIndex;
    /**
     * This process's registry entry at this epoch (rule M1: the entry of this member id written by this process), or
     * null when the id is absent or its entry belongs to another process.
     */
    final Registry.@Nullable Entry self;
    /** The member-lease generation of {@link #self}, or -1. */
    final long selfGeneration;
    /** The first epoch of the unbroken chain this view ends (rule M8). */
    final long chainStart;
    private final byte[] selfIdBytes;
    /** Member ids that left during the chain (sorted by id), their UTF-8 bytes and the last epoch they were present. */
    private final String[] departedIds;
    private final byte[][] departedIdBytes;
    private final long[] departedLast;
    /** The previous epoch of the chain, kept only until a view of the chain is settled (rule M4). */
    private volatile @Nullable EpochView previous;
    /** Monotonic time (local) at which the hand-over grace of rule M3 has passed. */
    private final long graceEndNanos;
    private volatile boolean settled;
    private volatile long deadlineNanos;
    private volatile long wallDeadlineMillis;
    private final ConcurrentHashMap<String, Long> acquired = new ConcurrentHashMap<>();

    /**
     * The view of {@code registry} for member {@code selfId} in process {@code selfOwner}; {@code candidate} is the
     * view adopted just before, chained only when it is exactly one epoch lower, of the same incarnation, under the
     * same registration (the caller checks nothing).
     */
    EpochView(Registry registry, String selfId, String selfOwner, @Nullable EpochView candidate, long graceEndNanos,
              GroupConfig config) {
        this.registry = registry;
        this.view = registry.view();
        this.epoch = registry.epoch();
        int index = -1;
        for (int i = 0; i < view.size(); i++) {
            if (view.members().get(i).id().equals(selfId)) {
                index = i;
            }
        }
        this.selfIndex = index;
        Registry.Entry entry = registry.entry(selfId);
        boolean generationOnly = config.has(GroupConfig.Defect.GENERATION_ONLY_REGISTRATION);
        this.self = entry != null && (generationOnly || entry.owner().equals(selfOwner)) ? entry : null;
        this.selfGeneration = self == null ? -1 : self.generation();
        this.selfIdBytes = Utf8.encode("member id", selfId);
        EpochView before = chains(candidate, generationOnly, config.has(GroupConfig.Defect.SAME_EPOCH_IS_SAME_VIEW))
                ? candidate : null;
        this.previous = before;
        this.graceEndNanos = graceEndNanos;
        // Rule M8: the chain's compact state, from the one before (or a new chain at this epoch).
        Map<String, Long> departed = new HashMap<>();
        long start = epoch;
        if (before != null) {
            start = before.chainStart;
            for (int i = 0; i < before.departedIds.length; i++) {
                departed.put(before.departedIds[i], before.departedLast[i]);
            }
            for (Member m : before.view.members()) {
                departed.put(m.id(), before.epoch);
            }
        }
        for (Member m : view.members()) {
            departed.remove(m.id());
        }
        if (departed.size() > MAX_DEPARTED) {
            // The memory limit: fold the oldest departures into the chain start.
            List<Map.Entry<String, Long>> byAge = new ArrayList<>(departed.entrySet());
            byAge.sort(Map.Entry.comparingByValue());
            for (Map.Entry<String, Long> old : byAge.subList(0, departed.size() - MAX_DEPARTED)) {
                start = Math.max(start, old.getValue() + 1);
                departed.remove(old.getKey());
            }
        }
        if (config.has(GroupConfig.Defect.TOKEN_LOOKS_BACK_FOUR)) {
            start = Math.max(start, epoch - DEFECT_LOOK_BACK);
        }
        this.chainStart = start;
        long floor = start;
        List<Map.Entry<String, Long>> kept = new ArrayList<>();
        for (Map.Entry<String, Long> e : departed.entrySet()) {
            if (e.getValue() >= floor) {
                kept.add(e);
            }
        }
        kept.sort(Comparator.comparing(Map.Entry::getKey));
        this.departedIds = new String[kept.size()];
        this.departedIdBytes = new byte[kept.size()][];
        this.departedLast = new long[kept.size()];
        for (int i = 0; i < kept.size(); i++) {
            departedIds[i] = kept.get(i).getKey();
            departedIdBytes[i] = Utf8.encode("member id", departedIds[i]);
            departedLast[i] = kept.get(i).getValue();
        }
    }

    /** Rules M1, M4: {@code before} continues into this view (one epoch lower, same incarnation and registration). */
    private boolean chains(@Nullable EpochView before, boolean generationOnly, boolean epochNumberOnly) {
        if (before == null || self == null || before.self == null || before.epoch != epoch - 1) {
            return false;
        }
        if (!before.registry.sameIncarnation(registry) && !epochNumberOnly) {
            return false;
        }
        return before.self.generation() == self.generation()
                && (generationOnly || before.self.owner().equals(self.owner()));
    }

    /** Rule M2: the view may be acted under until these deadlines (re-confirmed by every answer showing the epoch). */
    void confirm(long deadlineNanos, long wallDeadlineMillis) {
        if (this.deadlineNanos == 0 || deadlineNanos - this.deadlineNanos > 0) {
            this.deadlineNanos = deadlineNanos;
        }
        this.wallDeadlineMillis = Math.max(this.wallDeadlineMillis, wallDeadlineMillis);
    }

    /**
     * Rule M2: nanoseconds from now until {@link #fresh} turns false by either clock (the earlier of the monotonic
     * deadline and the wall deadline), or 0 or less when it is false already.
     */
    long nanosLeft(long nowNanos, long wallMillis) {
        if (deadlineNanos == 0) {
            return 0;
        }
        long monotonic = deadlineNanos - nowNanos;
        long wallLeftMillis = wallDeadlineMillis - wallMillis;
        if (wallLeftMillis >= monotonic / 1_000_000 + 1) {
            return monotonic;   // (also keeps a far wall deadline from overflowing)
        }
        return Math.min(monotonic, wallLeftMillis * 1_000_000);
    }

    boolean fresh(long nowNanos, long wallMillis) {
        return deadlineNanos != 0 && nowNanos - deadlineNanos < 0 && wallMillis < wallDeadlineMillis;
    }

    void markSettled() {
        settled = true;
    }

    /** Rule M3: every other member acknowledged the epoch, or the grace has passed on the local monotonic clock. */
    boolean settled(long nowNanos) {
        return settled || graceHasPassed(nowNanos);
    }

    /** Rule M3: a whole TTL has passed on the local monotonic clock since the answer that first showed this epoch. */
    boolean graceHasPassed(long nowNanos) {
        return nowNanos - graceEndNanos >= 0;
    }

    boolean settledByAcknowledgement() {
        return settled;
    }

    @Nullable EpochView previous() {
        return previous;
    }

    /**
     * Rule M4: a key owned here is actionable when an epoch of the chain from its token on is settled: this one, or
     * an earlier one (the key was actionable there, and no epoch in between gave it to anyone else).
     */
    boolean actionable(String key, long nowNanos) {
        long token = acquiredAt(key);
        return token != NOT_OWNER && newestSettled(nowNanos) >= token;
    }

    /** The newest epoch of the chain that is settled now, or -1; drops the links older than it (no longer needed). */
    private long newestSettled(long nowNanos) {
        for (EpochView at = this; at != null; at = at.previous) {
            if (at.settled(nowNanos)) {
                at.previous = null;
                return at.epoch;
            }
        }
        return -1;
    }

    /**
     * Rule M8: the epoch at which this instance's continuous ownership of {@code key} began (the fencing token), or
     * {@link #NOT_OWNER}: a function of the chain's state only (see the class documentation).
     */
    long acquiredAt(String key) {
        Long cached = acquired.get(key);
        if (cached != null) {
            return cached;
        }
        long value;
        if (self == null || Rendezvous.ownerIndex(key, view) != selfIndex) {
            value = NOT_OWNER;
        } else {
            value = chainStart;
            if (departedIds.length > 0) {
                MessageDigest sha256 = Ranking.sha256();
                byte[] scratch = new byte[Ranking.DIGEST_LENGTH];
                byte[] keyBytes = Utf8.encode("key", key);
                long selfWeight = Ranking.weight(sha256, keyBytes, selfIdBytes, scratch);
                for (int i = 0; i < departedIds.length; i++) {
                    if (departedLast[i] + 1 > value && Ranking.compare(Ranking.weight(sha256, keyBytes,
                            departedIdBytes[i], scratch), departedIdBytes[i], selfWeight, selfIdBytes) < 0) {
                        value = departedLast[i] + 1;
                    }
                }
            }
        }
        if (acquired.size() >= CACHE_CAPACITY) {
            acquired.clear();
        }
        acquired.put(key, value);
        return value;
    }

    /** The member ids that left during the chain, for tests and traces. */
    List<String> departed() {
        return Arrays.asList(departedIds.clone());
    }

    @Override
    public String toString() {
        return "epoch " + epoch + " " + view.members() + (settled ? " settled" : "") + " chain from " + chainStart;
    }
}
