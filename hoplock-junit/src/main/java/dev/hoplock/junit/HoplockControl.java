package dev.hoplock.junit;

import dev.hoplock.core.Holder;
import dev.hoplock.core.OwnerIds;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.ElectorSettings;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.ownership.Member;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.core.ownership.Rendezvous;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;
import dev.hoplock.core.time.ExecutorScheduler;
import dev.hoplock.core.time.Scheduler;
import dev.hoplock.core.time.TimeSource;
import dev.hoplock.core.time.VirtualTime;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Moves leadership, named locks and key ownership of an application's own engines in a test, over an
 * {@link InMemoryBackend}, and blocks until the engine reports the new state.
 *
 * <p>Guarantees: every change goes through the store and the real engines, under their safety rules, never around
 * them. Another instance is played by a <em>rival</em>: a record written by the owner {@value #RIVAL} for an election
 * (renewed every third of the elector's TTL, as a live leader renews, until this control releases it) or a lock
 * (valid for one day of the store's wall clock), a real {@link OwnershipGroup} member for ownership.
 * <ul>
 *   <li>{@link #crashRival}: the rival stops renewing, as a killed leader; the elector takes over only after its own
 *       observation of a TTL (rule E4).</li>
 *   <li>{@link #makeFollower}: the rival's record replaces the elector's (at the next generation); the elector's next
 *       renewal is refused, its term ends, and it follows the rival.</li>
 *   <li>{@link #makeLeader}: the rival releases its record as a graceful release does; the elector takes the lease by
 *       its own write, at its next poll. This control never writes a record for the elector.</li>
 *   <li>{@link #holdLockElsewhere} / {@link #freeLock}: the same for a named lock: a call that tries the lock meets
 *       the rival, and once freed takes it at once. A lock this instance held is lost at its next keep-alive.</li>
 *   <li>{@link #loseKeys} / {@link #ownAllKeys}: a rival member joins the group with an id chosen so that rendezvous
 *       hashing gives it exactly the keys to lose among the keys named; it leaves gracefully again.</li>
 * </ul>
 * Each method returns once the engine reports the state ({@code isLeader()}, {@code isHeld()}, {@code isOwner(key)}),
 * or throws an {@link AssertionError} after the {@link Waits} limit that names what was awaited and the engine's state.
 * A record held by an owner that is neither the rival nor the engine is never touched: the method fails and names it.
 */
public final class HoplockControl implements AutoCloseable {

    /** The owner id of every rival record. */
    public static final String RIVAL = "hoplock-test-rival";

    private static final Duration RIVAL_HOLD = Duration.ofDays(1);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final int MEMBER_ID_TRIES = 100_000;

    private final InMemoryBackend store;
    private final TimeSource time;
    private final Waits waits;
    private final String lockKeyPrefix;
    private final @Nullable VirtualTime virtualTime;
    private final Map<String, RivalMember> rivals = new LinkedHashMap<>();
    /** The rival's election leases, by key, renewed as a live leader renews. */
    private final Map<String, RivalLease> leases = new LinkedHashMap<>();
    private @Nullable ExecutorScheduler realTimer;

    /**
     * @param store         the store the engines use (not a decorated view of it: the rival writes below decorators)
     * @param time          the wall clock the engines read, for the rival's expiry
     * @param waits         how to wait for the engines (real time, or virtual time the engines run on)
     * @param lockKeyPrefix the key prefix of the named locks ({@code locks/} unless the application sets one)
     */
    public HoplockControl(InMemoryBackend store, TimeSource time, Waits waits, String lockKeyPrefix) {
        this(store, time, waits, lockKeyPrefix, null);
    }

    /**
     * A control for engines that run on {@code time} (their time source and scheduler, with store requests and events
     * on the thread that advances it): it waits by advancing {@code time}, up to {@code limit} of virtual time, and
     * its rival members run on {@code time} too. For harnesses that build the engines themselves (the Spring test
     * support); {@link TestHoplock#virtualTime()} makes one with the engines.
     *
     * @param lockKeyPrefix the key prefix of the named locks ({@code locks/} unless the application sets one)
     */
    public static HoplockControl onVirtualTime(InMemoryBackend store, VirtualTime time, Duration limit,
            String lockKeyPrefix) {
        return new HoplockControl(store, time, Waits.virtualTime(time, limit), lockKeyPrefix, time);
    }

    HoplockControl(InMemoryBackend store, TimeSource time, Waits waits, String lockKeyPrefix,
            @Nullable VirtualTime virtualTime) {
        this.store = store;
        this.time = time;
        this.waits = waits;
        this.lockKeyPrefix = lockKeyPrefix;
        this.virtualTime = virtualTime;
    }

    /** The store this control writes to. */
    public InMemoryBackend store() {
        return store;
    }

    // ------------------------------------------------------------------ elections

    /**
     * Makes {@code elector} the leader: releases the rival's record (if the rival holds the lease) and waits until the
     * elector leads, having taken the lease by its own write. The elector must be started.
     */
    public void makeLeader(Elector elector) {
        if (elector.isLeader()) {
            return;
        }
        releaseRival(elector.key(), "election '" + elector.key() + "'", elector.owner());
        waits.until(elector::isLeader, "the elector of '" + elector.key() + "' (" + elector.owner() + ") to lead",
                () -> describe(elector));
    }

    /**
     * Makes {@code elector} a follower: the rival takes the lease (its record replaces the elector's at the next
     * generation) and this waits until the elector no longer leads and sees the rival as the holder.
     */
    public void makeFollower(Elector elector) {
        holdElsewhere(elector.key(), "election '" + elector.key() + "'", elector.owner(), elector.settings().ttl());
        waits.until(() -> !elector.isLeader() && elector.holder().map(h -> h.owner().equals(RIVAL)).orElse(false),
                "the elector of '" + elector.key() + "' (" + elector.owner() + ") to follow " + RIVAL,
                () -> describe(elector));
    }

    /**
     * Makes the rival that leads {@code elector}'s election crash: it stops renewing, as a killed leader does, and
     * this waits until the elector took the lease over, which its takeover rule allows only once the record expired
     * and stayed unchanged for a whole TTL of its own observation (about one to two TTLs of the engine's clock, so
     * in virtual time no real wait). For testing what an application does on a failover.
     */
    public void crashRival(Elector elector) {
        synchronized (this) {
            if (!leases.containsKey(elector.key())) {
                throw new IllegalStateException("the rival does not lead election '" + elector.key() + "': call"
                        + " makeFollower first");
            }
            stopRenewing(elector.key());
        }
        waits.until(elector::isLeader, "the elector of '" + elector.key() + "' (" + elector.owner()
                + ") to take over from the crashed rival", () -> describe(elector));
    }

    // ------------------------------------------------------------------ named locks

    /**
     * Lets another instance (the rival) hold the lock {@code name} for a day: a call that tries it finds it held. If
     * this instance held it, it loses it at its next keep-alive ({@link #loseLock} waits for that).
     */
    public void holdLockElsewhere(String name) {
        holdElsewhere(lockKeyPrefix + name, "lock '" + name + "'", null, null);
    }

    /** Frees the lock {@code name} if the rival holds it (a graceful release): the next call that tries it takes it. */
    public void freeLock(String name) {
        releaseRival(lockKeyPrefix + name, "lock '" + name + "'", null);
    }

    /** Whether the rival holds the lock {@code name} now, by the store. */
    public boolean isLockHeldElsewhere(String name) {
        return read(lockKeyPrefix + name).map(r -> r.owner().equals(RIVAL) && r.expiresAt().isAfter(time.wallNow()))
                .orElse(false);
    }

    /** Takes the lock of {@code handle} away (the rival holds it) and waits until the handle reports it lost. */
    public void loseLock(LockHandle handle) {
        holdLockElsewhere(handle.name());
        waits.until(() -> !handle.isHeld(), "the lock '" + handle.name() + "' of " + handle.owner() + " to be lost",
                () -> "held: " + handle.isHeld() + ", token " + handle.token());
    }

    // ------------------------------------------------------------------ ownership

    /**
     * Makes {@code group} lose every key of {@code lost} and keep every key of {@code kept}: a rival member joins the
     * group (replacing this control's earlier rival of the group, if any) with an id that rendezvous hashing ranks
     * above this member for exactly those lost keys; waits until the group reports it. Other keys may move too (about
     * half of them): name every key the test relies on.
     */
    public void loseKeys(OwnershipGroup group, Collection<String> lost, Collection<String> kept) {
        Set<String> lose = Set.copyOf(lost);
        Set<String> keep = Set.copyOf(kept);
        for (String key : lose) {
            if (keep.contains(key)) {
                throw new IllegalArgumentException("key '" + key + "' is both to lose and to keep");
            }
        }
        leave(group.group());
        String id = rivalIdFor(group.self().id(), lose, keep);
        OwnershipGroup rival = rivalGroup(group, id);
        rivals.put(group.group(), new RivalMember(rival, lose));
        rival.start();
        waits.until(() -> lose.stream().noneMatch(group::isOwner) && keep.stream().allMatch(group::isOwner),
                "member '" + group.self().id() + "' of group '" + group.group() + "' to lose " + lose + " and own "
                        + keep, () -> describe(group, lose, keep));
    }

    /** {@link #loseKeys} for one key. */
    public void loseKey(OwnershipGroup group, String key) {
        loseKeys(group, List.of(key), List.of());
    }

    /**
     * Makes {@code group} own every key again: this control's rival leaves the group gracefully; waits until the group
     * is alone in its view and owns every key the rival had taken, plus {@code keys}.
     */
    public void ownAllKeys(OwnershipGroup group, String... keys) {
        Set<String> wanted = new java.util.LinkedHashSet<>(List.of(keys));
        RivalMember rival = rivals.get(group.group());
        if (rival != null) {
            wanted.addAll(rival.lost);
        }
        leave(group.group());
        // Until its first registry read the group does not know its members (members() throws): not yet alone.
        waits.until(() -> knowsMembers(group) && group.members().size() == 1 && wanted.stream().allMatch(group::isOwner),
                "member '" + group.self().id() + "' of group '" + group.group() + "' to own " + wanted + " alone",
                () -> describe(group, Set.of(), wanted));
    }

    private static boolean knowsMembers(OwnershipGroup group) {
        try {
            group.members();
            return true;
        } catch (dev.hoplock.core.ownership.MembershipUnavailableException notReadYet) {
            return false;
        }
    }

    /**
     * Makes every rival member this control started leave its group gracefully, waits until each has left, and stops
     * renewing the rival's election leases (they then expire as a crashed leader's would).
     */
    @Override
    public void close() {
        try {
            for (String group : List.copyOf(rivals.keySet())) {
                leave(group);
            }
        } finally {
            synchronized (this) {
                List.copyOf(leases.keySet()).forEach(this::stopRenewing);
                ExecutorScheduler timer = realTimer;
                realTimer = null;
                if (timer != null) {
                    timer.close();
                }
            }
        }
    }

    private void leave(String group) {
        RivalMember rival = rivals.remove(group);
        if (rival != null) {
            CompletableFuture<Void> left = rival.group.closeAsync();
            waits.until(left::isDone, "the rival member of group '" + group + "' to leave", () -> "still leaving");
        }
    }

    private OwnershipGroup rivalGroup(OwnershipGroup group, String id) {
        ElectorSettings settings = group.settings();
        OwnershipGroup.Builder builder = OwnershipGroup.builder(store, group.group()).memberId(id)
                .address("hoplock-test").ttl(settings.ttl()).renewInterval(settings.renewInterval())
                .pollInterval(settings.pollInterval()).requestTimeout(settings.requestTimeout())
                .safetyMargin(settings.safetyMargin()).releaseTimeout(settings.releaseTimeout());
        if (virtualTime != null) {
            builder.timeSource(virtualTime).scheduler(virtualTime).ioExecutor(Runnable::run)
                    .eventExecutor(Runnable::run);
        }
        return builder.build();
    }

    /** A member id that rendezvous hashing ranks above {@code self} for exactly the keys of {@code lose}. */
    static String rivalIdFor(String self, Set<String> lose, Set<String> keep) {
        for (int i = 1; i <= MEMBER_ID_TRIES; i++) {
            String id = RIVAL + "-" + i;
            List<Member> both = List.of(Member.of(self), Member.of(id));
            if (lose.stream().allMatch(k -> !Rendezvous.isOwner(k, self, both))
                    && keep.stream().allMatch(k -> Rendezvous.isOwner(k, self, both))) {
                return id;
            }
        }
        throw new IllegalArgumentException("no rival member id among " + MEMBER_ID_TRIES + " takes exactly " + lose
                + " from '" + self + "' and leaves it " + keep + ": name fewer keys (each halves the chance)");
    }

    // ------------------------------------------------------------------ records

    /**
     * Writes the rival's record over whatever is at {@code key} (not over another real holder's). With a {@code ttl}
     * (an election) the rival then renews it every third of it, as a live leader does, until released; without (a
     * lock) the record is valid for a day.
     */
    private synchronized void holdElsewhere(String key, String what, @Nullable String engineOwner,
            @Nullable Duration ttl) {
        for (int attempt = 0; attempt < 100; attempt++) {
            Optional<StoredObject> current = store.read(key, TIMEOUT);
            long generation = 0;
            if (current.isPresent()) {
                LeaseRecord record = decode(current.get(), what);
                if (record.owner().equals(RIVAL) && record.expiresAt().isAfter(time.wallNow())
                        && (ttl == null || leases.containsKey(key))) {
                    return; // the rival holds it already (and renews it, for an election)
                }
                stopRenewing(key);
                refuseForeign(record, what, engineOwner);
                generation = record.generation();
            }
            LeaseRecord rival = new LeaseRecord(generation + 1, time.wallNow().plus(ttl == null ? RIVAL_HOLD : ttl),
                    RIVAL, OwnerIds.randomHex(8));
            Handle expected = current.map(StoredObject::handle).orElse(Handle.NONE);
            if (store.write(key, expected, LeaseRecordCodec.encode(rival), TIMEOUT) instanceof WriteResult.Written written) {
                if (ttl != null) {
                    RivalLease lease = new RivalLease(key, rival.generation(), ttl, written.handle());
                    leases.put(key, lease);
                    lease.scheduleNext();
                }
                return;
            }
            // The engine wrote in between (a renewal): read again.
        }
        throw new AssertionError("hoplock test control: could not write the rival's record for " + what
                + " in 100 attempts: something writes it continuously");
    }

    /** Writes a graceful release over the rival's record at {@code key}, if the rival holds it. */
    private synchronized void releaseRival(String key, String what, @Nullable String engineOwner) {
        stopRenewing(key);
        Optional<StoredObject> current = store.read(key, TIMEOUT);
        if (current.isEmpty()) {
            return;
        }
        LeaseRecord record = decode(current.get(), what);
        if (!record.owner().equals(RIVAL)) {
            refuseForeign(record, what, engineOwner);
            return;
        }
        byte[] released = LeaseRecordCodec.encode(LeaseRecord.released(record.generation(), OwnerIds.randomHex(8)));
        if (!(store.write(key, current.get().handle(), released, TIMEOUT) instanceof WriteResult.Written)) {
            throw new AssertionError("hoplock test control: the rival's record for " + what
                    + " changed while it was being released; only this control writes it, so something else does");
        }
    }

    private void refuseForeign(LeaseRecord record, String what, @Nullable String engineOwner) {
        boolean free = record.isReleased() || record.isExpiredAt(time.wallNow());
        boolean engines = engineOwner == null || record.owner().equals(engineOwner);
        if (!free && !engines) {
            throw new AssertionError("hoplock test control: " + what + " is held by '" + record.owner()
                    + "', which is neither " + RIVAL + " nor the engine under test; this control does not touch"
                    + " another real holder's lease. Close that engine, or use another key.");
        }
    }

    private Optional<LeaseRecord> read(String key) {
        return store.read(key, TIMEOUT).map(object -> decode(object, key));
    }

    private static LeaseRecord decode(StoredObject object, String what) {
        try {
            return LeaseRecordCodec.decode(object.content());
        } catch (MalformedLeaseRecordException e) {
            throw new AssertionError("hoplock test control: the record of " + what + " is not a lease record: "
                    + e.getMessage(), e);
        }
    }

    private static String describe(Elector elector) {
        Optional<Holder> holder = elector.holder();
        return "leader " + elector.isLeader() + ", holder " + holder.map(h -> "'" + h.owner() + "' at generation "
                + h.generation()).orElse("unknown") + ", stopped " + elector.isStopped();
    }

    private static String describe(OwnershipGroup group, Set<String> lose, Set<String> keep) {
        List<String> owned = new ArrayList<>();
        for (String key : lose) {
            if (group.isOwner(key)) {
                owned.add(key);
            }
        }
        List<String> missing = new ArrayList<>();
        for (String key : keep) {
            if (!group.isOwner(key)) {
                missing.add(key);
            }
        }
        return "members " + group.members().members() + ", still owned " + owned + ", not owned " + missing
                + ", member " + group.isMember();
    }

    private record RivalMember(OwnershipGroup group, Set<String> lost) {
    }

    private void stopRenewing(String key) {
        RivalLease lease = leases.remove(key);
        if (lease != null) {
            lease.stop();
        }
    }

    private Scheduler scheduler() {
        if (virtualTime != null) {
            return virtualTime;
        }
        ExecutorScheduler timer = realTimer;
        if (timer == null) {
            timer = new ExecutorScheduler("hoplock-test-rival");
            realTimer = timer;
        }
        return timer;
    }

    /** The rival's lease of one election: renewed every third of its TTL while its record is the one it wrote. */
    private final class RivalLease {
        private final String key;
        private final long generation;
        private final Duration ttl;
        private Handle handle;
        private Scheduler.@Nullable Cancellable next;
        private boolean stopped;

        RivalLease(String key, long generation, Duration ttl, Handle handle) {
            this.key = key;
            this.generation = generation;
            this.ttl = ttl;
            this.handle = handle;
        }

        void scheduleNext() {
            next = scheduler().schedule(this::renew, ttl.dividedBy(3));
        }

        void renew() {
            synchronized (HoplockControl.this) {
                if (stopped) {
                    return;
                }
                LeaseRecord record = new LeaseRecord(generation, time.wallNow().plus(ttl), RIVAL, OwnerIds.randomHex(8));
                if (store.write(key, handle, LeaseRecordCodec.encode(record), TIMEOUT)
                        instanceof WriteResult.Written written) {
                    handle = written.handle();
                    scheduleNext();
                } else {
                    // Someone else wrote the record (a takeover after the rival's expiry): the rival is gone.
                    stopped = true;
                    leases.remove(key, this);
                }
            }
        }

        void stop() {
            stopped = true;
            Scheduler.Cancellable pending = next;
            if (pending != null) {
                pending.cancel();
            }
        }
    }
}
