package dev.hoplock.core.sim;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.election.SimulationSeams;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.core.ownership.OwnershipSeams;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;
import dev.hoplock.core.time.Scheduler;
import dev.hoplock.core.time.TimeSource;
import dev.hoplock.core.time.VirtualTime;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * One deterministic schedule of per-key ownership ({@link OwnershipGroup}): 3 to 6 machines, each running at most one
 * member process at a time, on one {@link VirtualTime}, over one linearisable store reached through a faulty network.
 * Everything random comes from one {@link SplittableRandom} seeded with {@link #seed}; everything runs on the calling
 * thread, so a seed replays the same schedule.
 *
 * <p>The fault model is the elector simulation's, for members: every machine has a wall-clock offset within +-TTL
 * and a monotonic rate within +-1%; requests take 1 to 400 ms each way, now and then up to 2 TTLs; answers are lost
 * (outcome unknown); partitions refuse, blackhole or apply-without-answer every request of a machine, or only those
 * to the registry; processes pause (half of them longer than a TTL: timers and answers are held, then run late),
 * crash (kill -9, no release) and restart under a new process id, leave gracefully and come back; some machines join
 * only during the run.
 *
 * <p>On top, the {@link Fault}s of issue 19, each switchable ({@code -Dhoplock.membership.faults}): outside deletes of
 * the registry and of member leases, a member id reused by a new process (a rescheduled pod, also at the same
 * lease generation), partitions from one record but not another, loaded machines whose answers come seconds late and
 * out of order, the whole store re-created, and members that never saw the registry starting right after its delete.
 * Outside deletes follow the elector simulation's condition ({@link OutsideDeletes}, see {@link #registryDeletable}
 * and {@link #memberLeaseDeletable}).
 *
 * <p>The checker samples every process that is running (not paused, not dead) every 50 ms of virtual time, after
 * every task of a process (timer or answer) and after every fault, asking each of 24 keys whether it acts as the
 * owner ({@code ActingGate.tokenIfActing}, the hot path itself). It fails the schedule when two processes act on one
 * key at one check (M1 to M4), or when a key's token does not strictly rise at a change of acting process, or falls
 * for one process (M8), except that the order restarts across a re-creation of the registry that happened, by the
 * store's history, between the two tokens ({@link #tokensRestartAtRecreation}, on by default: rules M8 and M9, as the
 * elector's generations restart after an outside delete; the fence keeps it safe). After the
 * chaos every fault heals; every key must then be owned by exactly one process within {@link #LIVENESS_BOUND_TTLS}
 * TTLs (requests then take 1 to 400 ms, none lost). A violation names the signatures of issue 19's defects 1 to 3 that
 * the processes involved show ({@code Process#signature}), and the trace ends with every process's state.
 */
final class MembershipSimulation extends SimWorld {

    static final int KEYS = 24;
    static final int LIVENESS_BOUND_TTLS = 6;
    private static final long SAMPLE_NANOS = 50_000_000L;

    static final Instant START = Instant.parse("2026-12-01T00:00:00Z");
    static final String GROUP = "sim-group";
    static final String REGISTRY_KEY = GROUP + "/registry";

    /**
     * A machine's link. The first five are the base schedule's; the others cut a machine off from some records but not
     * others ({@link Fault#PARTIAL_PARTITION}): requests to the cut-off records are refused or vanish, the rest go
     * through.
     */
    enum Link {
        UP, REFUSED, BLACKHOLE, ONE_WAY, REGISTRY_DOWN,
        /** The registry's requests vanish (no answer); the member leases answer. */
        REGISTRY_BLACKHOLE,
        /** Its own member lease is refused; the registry and the other leases answer. */
        OWN_LEASE_DOWN,
        /** Its own member lease's requests vanish; the registry and the other leases answer. */
        OWN_LEASE_BLACKHOLE,
        /** Every member lease (its own and the watched one) is refused; the registry answers. */
        LEASES_DOWN;

        /** The links of the base schedule (drawn as before, so that a seed replays the same base schedule). */
        static final Link[] BASE = {REFUSED, BLACKHOLE, ONE_WAY, REGISTRY_DOWN};
        static final Link[] PARTIAL = {REGISTRY_DOWN, REGISTRY_BLACKHOLE, OWN_LEASE_DOWN, OWN_LEASE_BLACKHOLE,
                LEASES_DOWN};

        /** What a request to a record of kind {@code registry} / {@code ownLease} meets on this link. */
        Link toward(boolean registry, boolean ownLease) {
            return switch (this) {
                case REGISTRY_DOWN -> registry ? REFUSED : UP;
                case REGISTRY_BLACKHOLE -> registry ? BLACKHOLE : UP;
                case OWN_LEASE_DOWN -> ownLease ? REFUSED : UP;
                case OWN_LEASE_BLACKHOLE -> ownLease ? BLACKHOLE : UP;
                case LEASES_DOWN -> registry ? UP : REFUSED;
                default -> this;
            };
        }
    }

    /**
     * The faults issue 19 added, each of which can be switched on alone ({@code -Dhoplock.membership.faults}: {@code all},
     * {@code none} or a list such as {@code registry-delete,loaded}) to attribute a violation to one family. With
     * none, a seed replays exactly the schedule it did before they existed.
     */
    enum Fault {
        /** The registry is deleted from outside (by {@link OutsideDeletes}: every living member last saw it). */
        REGISTRY_DELETE,
        /** A member lease is deleted from outside (by {@link OutsideDeletes}, among the processes of that id). */
        MEMBER_LEASE_DELETE,
        /**
         * A member id is reused by a new process on another machine (a rescheduled pod): the old process is killed at
         * once or keeps running until a later kill (the orchestrator thought it dead); half the time the member's
         * lease is first deleted from outside, so that the new process re-creates it at the same generation.
         */
        MEMBER_ID_REUSE,
        /** A machine is cut off from one record but not another ({@link Link#PARTIAL}). */
        PARTIAL_PARTITION,
        /**
         * A machine is loaded (the host of the evidence in ownership-split-s3-under-load, TTL 3 s, answers seconds
         * late): each answer comes up to a TTL late and each timer up to a third of a TTL late, independently, so a
         * later request's answer can arrive before an earlier one's and many requests time out with an unknown
         * outcome.
         */
        LOADED,
        /** Every record is gone at once (the store or bucket re-created), by {@link OutsideDeletes} for each. */
        STORE_RECREATION,
        /**
         * After a registry delete, new processes are not held off: a member that never saw the registry may start at
         * once and create it. (The ownership rules claim to cover this: a created registry waits a TTL, rule M3.)
         */
        FRESH_CREATOR;

        static Set<Fault> parse(String spec) {
            return FaultSwitches.parse(Fault.class, spec);
        }

        /** The switch that selects {@code faults} ({@link #parse}'s inverse). */
        static String spec(Set<Fault> faults) {
            return FaultSwitches.spec(Fault.class, faults);
        }
    }

    /** What one schedule showed. */
    record Result(long seed, String violation, long samples, long ownerChanges, long faults, long requests,
                  Duration simulated, SimStats stats) {
    }

    final long seed;
    private final InMemoryBackend store = new InMemoryBackend();
    private final OwnershipSeams.PlantedDefect defect;
    private final Set<Fault> extra;
    private final Duration ttl;
    private final List<Node> nodes = new ArrayList<>();
    private final List<String> keys = new ArrayList<>();
    private final Map<String, String> lastActor = new HashMap<>();
    private final Map<String, Long> lastToken = new HashMap<>();
    /**
     * Per key: the life of the registry (see {@link #lives}) whose view the last checked token was issued under.
     */
    private final Map<String, Integer> lastLife = new HashMap<>();
    /**
     * The store's history of the registry: per incarnation id, its life, i.e. the value of {@link #registryIncarnation}
     * when the store applied the write that created it (0 for the first registry, one more after each delete from
     * outside). Recorded at the store, not from what any process believes.
     */
    private final Map<String, Integer> lives = new HashMap<>();
    /**
     * On (the default, {@code -Dhoplock.membership.tokensRestartAtRecreation=false} turns it off): a key's token order
     * restarts when the registry was re-created, by the store's history, between the two tokens compared, i.e. the
     * later token was issued under a view of a later life of the registry than the earlier one ({@link #lives}). This
     * is the documented rule: after a delete of the registry from outside (alone or with the whole store) a member
     * that never saw it creates it at epoch 1 (rule M9), so tokens, which are epochs (rule M8), start again, exactly as
     * the elector's generations restart after an outside delete of its lease record; the fence keeps that safe
     * ({@code Fence.check} with a holder; {@code JdbcFence} refuses an equal token from another holder and any lower
     * token). Everything else is still judged: two acting owners at one check, and within one life of the registry
     * (or going back to an earlier one) a token that does not rise at a change of owner or falls for one process.
     * Off: tokens must rise at every change of owner and never fall, across re-creations too (issue 19's wish list).
     */
    private final boolean tokensRestartAtRecreation = Boolean.parseBoolean(
            System.getProperty("hoplock.membership.tokensRestartAtRecreation", "true"));
    /** How many times the registry was deleted from outside (alone or with the whole store). */
    private int registryIncarnation;
    private final Trace trace = new Trace(400);
    /** Per member id: no process of that id starts before this shared instant (rule 2 of {@link OutsideDeletes}). */
    private final Map<String, Long> holdOff = new HashMap<>();
    /** No new process of any id starts before this shared instant (after a registry delete). */
    private long holdOffAll;
    private long chaosNanos;
    private int reuses;
    private String violation;
    /** Processes started per member id (owner ids are {@code <member id>#<n>}, unique per process). */
    private final Map<String, Integer> incarnations = new HashMap<>();
    /** After the heal: requests take 1 to 400 ms and no answer is lost. */
    private boolean healed;
    private long samples;
    private long ownerChanges;
    private long faults;
    private long requests;

    MembershipSimulation(long seed, OwnershipSeams.PlantedDefect defect) {
        this(seed, defect, EnumSet.noneOf(Fault.class));
    }

    MembershipSimulation(long seed, OwnershipSeams.PlantedDefect defect, Set<Fault> faults) {
        super(seed, START);
        this.seed = seed;
        this.defect = defect;
        this.extra = faults.isEmpty() ? EnumSet.noneOf(Fault.class) : EnumSet.copyOf(faults);
        this.ttl = random.nextBoolean() ? Duration.ofSeconds(10) : Duration.ofSeconds(30);
        for (int i = 0; i < KEYS; i++) {
            keys.add("key-" + i);
        }
    }

    Result run() {
        int machines = 3 + random.nextInt(4);
        for (int i = 0; i < machines; i++) {
            long skew = random.nextLong(-ttl.toNanos(), ttl.toNanos() + 1);
            double rate = 1 + (random.nextDouble() * 2 - 1) * 0.01;
            Node node = new Node("m" + i, Duration.ofNanos(skew), rate, random.nextLong(Long.MAX_VALUE / 2));
            nodes.add(node);
        }
        if (extra.contains(Fault.MEMBER_ID_REUSE) || extra.contains(Fault.FRESH_CREATOR)) {
            // Spare machines, with no member of their own: rescheduled pods and new members start there.
            for (int i = 0; i < 2; i++) {
                long skew = random.nextLong(-ttl.toNanos(), ttl.toNanos() + 1);
                double rate = 1 + (random.nextDouble() * 2 - 1) * 0.01;
                Node spare = new Node("s" + i, Duration.ofNanos(skew), rate, random.nextLong(Long.MAX_VALUE / 2));
                spare.memberId = null;
                nodes.add(spare);
            }
        }
        int startNow = Math.max(2, machines - random.nextInt(3));
        for (int i = 0; i < machines; i++) {
            Node node = nodes.get(i);
            if (i < startNow) {
                node.startProcess();
            } else {
                long at = random.nextLong(ttl.toNanos() * 6);
                time.schedule(() -> start(node), Duration.ofNanos(at));
            }
        }
        scheduleSampling();
        chaosNanos = ttl.toNanos() * (6 + random.nextInt(7));
        long end = chaosNanos;
        long at = ttl.toNanos() * 2;
        while (at < end) {
            long when = at;
            time.schedule(this::fault, Duration.ofNanos(when));
            at += random.nextLong(ttl.toNanos() / 5, ttl.toNanos() * 2);
        }
        List<Fault> drawn = new ArrayList<>(extra);
        drawn.remove(Fault.FRESH_CREATOR);
        if (extra.contains(Fault.FRESH_CREATOR) && !extra.contains(Fault.REGISTRY_DELETE)
                && !extra.contains(Fault.STORE_RECREATION)) {
            drawn.add(Fault.REGISTRY_DELETE);
        }
        if (!drawn.isEmpty()) {
            for (long t = ttl.toNanos() + random.nextLong(ttl.toNanos()); t < end;
                 t += random.nextLong(ttl.toNanos() / 5, ttl.toNanos() * 2)) {
                Fault fault = drawn.get(random.nextInt(drawn.size()));
                time.schedule(() -> extraFault(fault), Duration.ofNanos(t));
            }
        }
        advance(Duration.ofNanos(end));
        if (violation == null) {
            heal();
            advance(ttl.multipliedBy(LIVENESS_BOUND_TTLS));
            if (violation == null) {
                checkEveryKeyOwned();
            }
        }
        return new Result(seed, violation, samples, ownerChanges, faults, requests, time.elapsed(), stats);
    }

    String trace() {
        return trace.dump();
    }

    private void advance(Duration duration) {
        long target = time.nanoTime() + duration.toNanos();
        while (violation == null && time.nanoTime() < target) {
            time.advance(Duration.ofNanos(Math.min(SAMPLE_NANOS, target - time.nanoTime())));
        }
    }

    private void scheduleSampling() {
        time.schedule(() -> {
            samples++;
            check();
            scheduleSampling();
        }, Duration.ofNanos(SAMPLE_NANOS));
    }

    private void log(String what) {
        trace.add(time.nanoTime(), null, what);
    }

    // ------------------------------------------------------------------ faults

    private void fault() {
        if (violation != null) {
            return;
        }
        faults++;
        Node node = nodes.get(random.nextInt(nodes.size()));
        int kind = random.nextInt(100);
        long duration = random.nextLong(ttl.toNanos() / 10, ttl.toNanos() * 5 / 2);
        if (kind < 18) {
            if (node.process != null && !node.paused) {
                log(node.name + " PAUSED for " + duration / 1_000_000 + "ms");
                node.paused = true;
                time.schedule(node::resume, Duration.ofNanos(duration));
            }
        } else if (kind < 40) {
            cut(node, Link.BASE[random.nextInt(Link.BASE.length)], duration);
        } else if (kind < 55) {
            if (node.process != null) {
                log(node.name + " KILLED (" + node.process.owner + ")");
                node.kill();
                time.schedule(() -> start(node), Duration.ofNanos(duration));
            }
        } else if (kind < 70) {
            if (node.process != null && !node.paused) {
                log(node.name + " LEAVES gracefully (" + node.process.owner + ")");
                Process leaving = node.process;
                leaving.leaving = true;
                leaving.group.closeAsync().thenRun(() -> {
                    if (node.process == leaving) {
                        node.process = null;
                        log(node.name + " left");
                        time.schedule(() -> start(node), Duration.ofNanos(duration));
                    }
                });
            }
        } else if (kind < 80) {
            start(node);
        } else {
            node.slow = !node.slow;
            log(node.name + (node.slow ? " SLOW link" : " fast link"));
        }
        check();
    }

    /** Puts {@code node}'s link into {@code link} for {@code duration} ns (unless another fault changes it first). */
    private void cut(Node node, Link link, long duration) {
        log(node.name + " link " + link + " for " + duration / 1_000_000 + "ms");
        node.link = link;
        long epoch = ++node.linkEpoch;
        time.schedule(() -> {
            if (node.linkEpoch == epoch) {
                node.link = Link.UP;
                log(node.name + " link UP");
            }
        }, Duration.ofNanos(duration));
    }

    /** Starts a process on {@code node} unless one runs there, it hosts no member, or its id is held off. */
    private void start(Node node) {
        if (node.process != null || node.memberId == null) {
            return;
        }
        if (node.orphan) {
            // The old pod of a reused member id is gone for good: the machine is a spare again.
            node.orphan = false;
            node.memberId = null;
            return;
        }
        long until = Math.max(holdOffAll, holdOff.getOrDefault(node.memberId, Long.MIN_VALUE));
        if (time.nanoTime() < until) {
            time.schedule(() -> start(node), Duration.ofNanos(until - time.nanoTime()));
            return;
        }
        node.startProcess();
    }

    // ------------------------------------------------------------------ the faults of issue 19

    private void extraFault(Fault fault) {
        if (violation != null || healed) {
            return;
        }
        faults++;
        long duration = random.nextLong(ttl.toNanos() / 10, ttl.toNanos() * 5 / 2);
        switch (fault) {
            case REGISTRY_DELETE -> deleteRegistry();
            case MEMBER_LEASE_DELETE -> {
                List<Node> members = nodes.stream().filter(n -> n.memberId != null && !n.orphan).toList();
                deleteMemberLease(members.get(random.nextInt(members.size())).memberId);
            }
            case MEMBER_ID_REUSE -> reuseMemberId();
            case PARTIAL_PARTITION -> {
                Node node = nodes.get(random.nextInt(nodes.size()));
                Link link = Link.PARTIAL[random.nextInt(Link.PARTIAL.length)];
                stats.count("fault.partition-" + link.name().toLowerCase().replace('_', '-'));
                cut(node, link, duration);
            }
            case LOADED -> {
                Node node = nodes.get(random.nextInt(nodes.size()));
                stats.count("fault.loaded");
                log(node.name + " LOADED (answers up to a TTL late, timers up to TTL/3, out of order) for "
                        + duration / 1_000_000 + "ms");
                node.loaded = true;
                long epoch = ++node.loadEpoch;
                time.schedule(() -> {
                    if (node.loadEpoch == epoch) {
                        node.loaded = false;
                        log(node.name + " no longer loaded");
                    }
                }, Duration.ofNanos(duration));
            }
            case STORE_RECREATION -> recreateStore();
            case FRESH_CREATOR -> throw new IllegalStateException("a switch of the registry delete, not a fault");
        }
        check();
    }

    private boolean quietBeforeHeal() {
        // (Not just before the heal, as in the elector simulation: the loss and the new views would fall into the calm
        // after it, where liveness is measured.)
        return time.nanoTime() > chaosNanos - 2 * ttl.toNanos();
    }

    /** The living processes that are not leaving (the witnesses of {@link OutsideDeletes}). */
    private List<Process> living() {
        List<Process> living = new ArrayList<>();
        for (Node node : nodes) {
            Process p = node.process;
            if (p != null && !p.dead && !p.leaving) {
                living.add(p);
            }
        }
        return living;
    }

    /**
     * The registry may go when every living member last saw it (a member that did not would take its absence for a
     * new group, rule M9): {@link OutsideDeletes#everyOtherSaw} with "present" for a holder. New processes are held off for its
     * hold-off unless {@link Fault#FRESH_CREATOR} is on.
     */
    private boolean registryDeletable() {
        List<OutsideDeletes.Witness> witnesses = new ArrayList<>();
        for (Process p : living()) {
            witnesses.add(new OutsideDeletes.Witness(p.owner, p.lastSeen(REGISTRY_KEY)));
        }
        return OutsideDeletes.everyOtherSaw(Process.PRESENT, witnesses);
    }

    /**
     * The owner of member {@code id}'s lease if it may be deleted now, else null: it is held, and every other living
     * process of that member id (the only ones that would take it) last saw it held by that owner
     * ({@link OutsideDeletes#everyOtherSaw}). (Watchers of other ids only remove the entry after a TTL of absence.)
     */
    private String memberLeaseDeletable(String id) {
        String key = memberKey(id);
        String holder = holderOf(key);
        List<OutsideDeletes.Witness> witnesses = new ArrayList<>();
        for (Process p : living()) {
            if (p.memberId.equals(id)) {
                witnesses.add(new OutsideDeletes.Witness(p.owner, p.lastSeen(key)));
            }
        }
        return holder != null && OutsideDeletes.everyOtherSaw(holder, witnesses) ? holder : null;
    }

    private void deleteRegistry() {
        if (quietBeforeHeal() || !registryDeletable() || !deleteFromOutside(REGISTRY_KEY)) {
            return;
        }
        stats.count("fault.registry-delete");
        registryIncarnation++;
        log("REGISTRY DELETED FROM OUTSIDE");
        if (extra.contains(Fault.FRESH_CREATOR)) {
            freshMember();
        } else {
            holdOffAll = OutsideDeletes.noStartsUntil(time.nanoTime(), ttl.toNanos());
        }
    }

    private boolean deleteMemberLease(String id) {
        if (quietBeforeHeal()) {
            return false;
        }
        String holder = memberLeaseDeletable(id);
        if (holder == null || !deleteFromOutside(memberKey(id))) {
            return false;
        }
        stats.count("fault.member-lease-delete");
        log("MEMBER LEASE of " + id + " (held by " + holder + ") DELETED FROM OUTSIDE");
        holdOff.put(id, OutsideDeletes.noStartsUntil(time.nanoTime(), ttl.toNanos()));
        return true;
    }

    /** Every record gone at once, when each of them may go by {@link OutsideDeletes}. */
    private void recreateStore() {
        if (quietBeforeHeal() || store.read(REGISTRY_KEY, ttl).isEmpty() || !registryDeletable()) {
            return;
        }
        List<String> ids = memberIds();
        for (String id : ids) {
            if (store.read(memberKey(id), ttl).isPresent() && memberLeaseDeletable(id) == null) {
                return;
            }
        }
        deleteFromOutside(REGISTRY_KEY);
        long until = OutsideDeletes.noStartsUntil(time.nanoTime(), ttl.toNanos());
        for (String id : ids) {
            deleteFromOutside(memberKey(id));
            holdOff.put(id, until);
        }
        holdOffAll = until;
        stats.count("fault.store-recreation");
        registryIncarnation++;
        log("STORE RE-CREATED: every record gone");
    }

    /** A member that never saw the registry starts right after its delete (on a spare machine, with a new id). */
    private void freshMember() {
        Node spare = spare();
        if (spare == null) {
            return;
        }
        spare.memberId = "n" + ++reuses;
        stats.count("fault.fresh-creator");
        log(spare.name + " hosts NEW member " + spare.memberId + " (never saw the registry)");
        start(spare);
    }

    /**
     * A rescheduled pod: member {@code id}'s process is started on a spare machine; the old one is killed at once or
     * keeps running (then its machine hosts it until it dies, and no longer restarts it). Half the time its lease is
     * first deleted from outside, so that the new process creates it at generation 1 (after the hold-off).
     */
    private void reuseMemberId() {
        Node spare = spare();
        List<Node> homes = nodes.stream().filter(n -> n.memberId != null && !n.orphan).toList();
        if (spare == null || homes.isEmpty()) {
            return;
        }
        Node old = homes.get(random.nextInt(homes.size()));
        String id = old.memberId;
        boolean deleted = random.nextBoolean() && deleteMemberLease(id);
        boolean killOld = random.nextBoolean();
        stats.count("fault.member-id-reuse" + (deleted ? "-after-lease-delete" : ""));
        log(spare.name + " takes over member " + id + " from " + old.name + (deleted ? " after its lease was deleted" : "")
                + (old.process == null ? "" : killOld ? ", " + old.process.owner + " KILLED" : ", "
                + old.process.owner + " keeps running"));
        spare.memberId = id;
        if (old.process == null) {
            old.memberId = null;
        } else if (killOld) {
            old.kill();
            old.memberId = null;
        } else {
            old.orphan = true;
        }
        start(spare);
    }

    private Node spare() {
        for (Node node : nodes) {
            if (node.memberId == null && node.process == null) {
                return node;
            }
        }
        return null;
    }

    private List<String> memberIds() {
        List<String> ids = new ArrayList<>();
        for (Node node : nodes) {
            if (node.memberId != null && !ids.contains(node.memberId)) {
                ids.add(node.memberId);
            }
        }
        for (int i = 1; i <= reuses; i++) {
            if (!ids.contains("n" + i)) {
                ids.add("n" + i);
            }
        }
        return ids;
    }

    static String memberKey(String id) {
        return GROUP + "/members/" + id;
    }

    /** The owner of the lease record under {@code key}, or null when there is none or it is released. */
    private String holderOf(String key) {
        Optional<StoredObject> object = store.read(key, ttl);
        if (object.isEmpty()) {
            return null;
        }
        String owner = leaseOwner(object.get().content());
        return owner.isEmpty() ? null : owner;
    }

    /** The owner of a lease record, or "" when it is released or does not decode. */
    static String leaseOwner(byte[] content) {
        try {
            LeaseRecord record = LeaseRecordCodec.decode(content);
            return record.isReleased() ? "" : record.owner();
        } catch (MalformedLeaseRecordException e) {
            return "";
        }
    }

    private boolean deleteFromOutside(String key) {
        Optional<StoredObject> object = store.read(key, ttl);
        return object.isPresent() && store.delete(key, object.get().handle(), ttl) == DeleteResult.DELETED;
    }

    private void heal() {
        log("HEAL");
        healed = true;
        for (Node node : nodes) {
            node.link = Link.UP;
            node.linkEpoch++;
            node.slow = false;
            node.loaded = false;
            node.loadEpoch++;
            if (node.paused) {
                node.resume();
            }
            if (node.orphan && node.process != null) {
                // The orchestrator finally kills the old pod of a reused member id.
                log(node.name + " old pod " + node.process.owner + " KILLED at the heal");
                node.kill();
            }
            start(node);
        }
    }

    // ------------------------------------------------------------------ the checker

    @Override
    void traceOn(Machine machine, String action) {
        log(action);
    }

    @Override
    void violationOn(Machine machine, String what) {
        fail(what);
    }

    /** The invariants at this instant: one acting owner per key; tokens rise at a change of owner, never fall. */
    @Override
    void check() {
        if (violation != null) {
            return;
        }
        for (String key : keys) {
            Process acting = null;
            long actingToken = -1;
            for (Node node : nodes) {
                Process p = node.process;
                if (p == null || node.paused || p.dead) {
                    continue;
                }
                long token = OwnershipSeams.tokenIfActing(p.group, key);
                if (token < 0) {
                    continue;
                }
                if (acting != null) {
                    fail("key " + key + " has two acting owners: " + acting.owner + " (token " + actingToken + ") and "
                            + p.owner + " (token " + token + ")" + acting.signature() + p.signature());
                    return;
                }
                acting = p;
                actingToken = token;
            }
            if (acting == null) {
                continue;
            }
            String before = lastActor.put(key, acting.owner);
            Long beforeToken = lastToken.put(key, actingToken);
            int life = lifeOf(OwnershipSeams.viewIncarnation(acting.group));
            Integer beforeLife = lastLife.put(key, life);
            if (beforeToken == null) {
                continue;
            }
            if (!acting.owner.equals(before)) {
                ownerChanges++;
            }
            // A re-creation of the registry between the two tokens, by the store's history (not by when the checker
            // noticed it): the earlier token was issued under a view of an earlier life of the registry.
            boolean recreatedBetween = beforeLife >= 0 && life > beforeLife;
            String across = life != beforeLife ? " (the earlier token under life " + beforeLife + " of the registry,"
                    + " this one under life " + life + ")" : "";
            if (recreatedBetween && tokensRestartAtRecreation) {
                continue;
            }
            if (!acting.owner.equals(before)) {
                if (actingToken <= beforeToken) {
                    fail("key " + key + " moved from " + before + " (token " + beforeToken + ") to " + acting.owner
                            + " with token " + actingToken + ": not higher" + across + acting.signature());
                    return;
                }
            } else if (actingToken < beforeToken) {
                fail("key " + key + ": the token of " + acting.owner + " fell from " + beforeToken + " to "
                        + actingToken + across + acting.signature());
                return;
            }
        }
    }

    /** The life of the registry incarnation {@code id} by the store's history ({@link #lives}), or -1 if unknown. */
    private int lifeOf(@Nullable String id) {
        Integer life = id == null ? null : lives.get(id);
        return life == null ? -1 : life;
    }

    private void checkEveryKeyOwned() {
        for (String key : keys) {
            int owners = 0;
            for (Node node : nodes) {
                if (node.process != null && OwnershipSeams.tokenIfActing(node.process.group, key) >= 0) {
                    owners++;
                }
            }
            if (owners != 1) {
                for (Node node : nodes) {
                    if (node.process != null) {
                        log(node.name + " " + node.process.owner + " state: " + OwnershipSeams.describe(node.process.group));
                    }
                }
                fail("liveness: " + LIVENESS_BOUND_TTLS + " TTLs after healing, key " + key + " has " + owners
                        + " acting owners (expected exactly 1)");
                return;
            }
        }
    }

    private void fail(String message) {
        if (violation == null) {
            violation = message + " at " + time.elapsed() + " (seed " + seed + ", ttl " + ttl.toSeconds() + "s)";
            log("VIOLATION " + message);
            for (Node node : nodes) {
                if (node.process != null) {
                    log(node.name + " " + node.process.owner + (node.paused ? " (paused)" : "") + " state: "
                            + OwnershipSeams.describe(node.process.group));
                }
            }
            log("store: registry " + store.read(REGISTRY_KEY, ttl).map(o -> registryLine(o.content())).orElse("none"));
        }
    }

    /** Per member-lease key: the owner the trace last showed, so that renewals are not traced. */
    private final Map<String, String> traceLeases = new HashMap<>();

    /** Traces a registry write, or a member lease changing hands (not its renewals). */
    private void traceWrite(String writer, String key) {
        byte[] content = store.read(key, ttl).map(StoredObject::content).orElse(new byte[0]);
        if (key.equals(REGISTRY_KEY)) {
            log(writer + " wrote the registry: " + registryLine(content));
        } else {
            traceLeases.put(key, leaseTag(key));
            log(writer + " wrote " + key + ": " + new String(content, java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    /** The owner and generation of the lease record under {@code key}, for the trace. */
    private String leaseTag(String key) {
        Optional<StoredObject> object = store.read(key, ttl);
        if (object.isEmpty()) {
            return "";
        }
        try {
            LeaseRecord record = LeaseRecordCodec.decode(object.get().content());
            return record.owner() + " g" + record.generation() + (record.isReleased() ? " released" : "");
        } catch (MalformedLeaseRecordException e) {
            return "corrupt";
        }
    }

    /** The registry's text on one line: epoch, and per member id, owner, generation and ack. */
    static String registryLine(byte[] content) {
        return RegistryText.parse(content).toString();
    }

    // ------------------------------------------------------------------ machines and processes

    /** One machine: clocks, link, and the member process running on it (at most one). */
    final class Node {
        final String name;
        final Duration wallOffset;
        final double rate;
        final long origin;
        Link link = Link.UP;
        long linkEpoch;
        boolean slow;
        boolean paused;
        /** True while the tasks held during a pause run, at the instant it ends. */
        boolean waking;
        /** While true, answers and timers of this machine come late, each by its own delay ({@link Fault#LOADED}). */
        boolean loaded;
        long loadEpoch;
        Process process;
        /** The member id this machine runs, or null on a spare machine. */
        String memberId;
        /** Its process is the old pod of a member id now run elsewhere: when it dies, the machine becomes a spare. */
        boolean orphan;

        Node(String name, Duration wallOffset, double rate, long origin) {
            this.name = name;
            this.wallOffset = wallOffset;
            this.rate = rate;
            this.origin = origin;
            this.memberId = name;
        }

        void startProcess() {
            int incarnation = incarnations.merge(memberId, 1, Integer::sum);
            paused = false;
            process = new Process(this, memberId + "#" + incarnation);
            log(name + " STARTS " + process.owner);
            process.group.start();
        }

        void kill() {
            stats.count("process.killed");
            process.dead = true;
            process.held.clear();
            process = null;
            paused = false;
        }

        void resume() {
            if (!paused) {
                return;
            }
            paused = false;
            log(name + " resumes");
            Process p = process;
            if (p != null) {
                List<Runnable> due = new ArrayList<>(p.held);
                p.held.clear();
                waking = true;
                try {
                    for (Runnable task : due) {
                        if (!p.dead) {
                            task.run();
                        }
                    }
                } finally {
                    waking = false;
                }
                check();
            }
        }
    }

    /** One member process: its clocks and scheduler on the machine, its link to the store, its group. */
    final class Process implements TimeSource, Scheduler, AsyncBackend {
        /** What a sighting of the registry records when it was there. */
        static final String PRESENT = "present";

        final Node node;
        final String memberId;
        final String owner;
        final OwnershipGroup group;
        final List<Runnable> held = new ArrayList<>();
        /** Per key: what this process last saw ({@link #sighting}), by an answer in time or its own confirmed write. */
        private final Map<String, String> lastSeen = new HashMap<>();
        boolean dead;
        boolean leaving;
        /** For {@link #signature}: the registry this process last read, the view it adopted, the epoch it created. */
        private RegistryText lastRegistry;
        private long adoptedEpoch = -1;
        private List<String> adoptedMembers = List.of();
        private long createdEpoch = -1;
        private long createdAt;

        Process(Node node, String owner) {
            this.node = node;
            this.memberId = node.memberId;
            this.owner = owner;
            OwnershipGroup.Builder builder = OwnershipGroup.builder(this, GROUP).memberId(memberId)
                    .address(node.name + ":7000").owner(owner).ttl(ttl).timeSource(this).scheduler(this)
                    .eventExecutor(Runnable::run).releaseTimeout(Duration.ofSeconds(2));
            OwnershipSeams.electorCustomizer(builder, eb -> SimulationSeams.fallbackScheduler(eb, this));
            if (defect != null) {
                OwnershipSeams.plant(builder, defect);
            }
            this.group = builder.build();
            group.addListener(event -> {
                if (event instanceof dev.hoplock.core.ownership.OwnershipEvent.MembershipChanged changed) {
                    adoptedEpoch = changed.epoch();
                    adoptedMembers = changed.current().members().stream().map(m -> m.id()).sorted().toList();
                    log(owner + " adopts epoch " + changed.epoch() + " " + changed.current().members().stream()
                            .map(m -> m.id()).toList());
                } else if (event instanceof dev.hoplock.core.ownership.OwnershipEvent.Settled settled) {
                    log(owner + " epoch " + settled.epoch() + " settled by acknowledgements");
                }
            });
        }

        @Override
        public Instant wallNow() {
            return time.wallNow().plus(node.wallOffset);
        }

        @Override
        public long nanoTime() {
            return node.origin + (long) Math.floor(time.nanoTime() * node.rate);
        }

        @Override
        public Cancellable schedule(Runnable task, Duration delay) {
            long shared = (long) Math.ceil(Math.max(0, delay.toNanos()) / node.rate);
            if (node.loaded) {
                shared += random.nextLong(ttl.toNanos() / 3);
            }
            return deliver(task, shared);
        }

        /** An answer's delivery: late by up to a TTL more on a loaded machine, each on its own. */
        private void answer(Runnable task, long sharedNanos) {
            deliver(task, node.loaded ? sharedNanos + random.nextLong(ttl.toNanos()) : sharedNanos);
        }

        /** What this process last saw of {@code key}: an owner, {@link #PRESENT}, or "" (nothing, or released). */
        String lastSeen(String key) {
            return lastSeen.getOrDefault(key, "");
        }

        private void saw(String key, Optional<StoredObject> object) {
            lastSeen.put(key, object.map(o -> sighting(key, o.content())).orElse(""));
            if (key.equals(REGISTRY_KEY) && object.isPresent()) {
                lastRegistry = RegistryText.parse(object.get().content());
            }
        }

        /**
         * What this process's state shows of the known defects of issue 19 (a diagnosis for the report, not a check):
         * its registry entry names another process (defect 3), its view's members are not those of the registry it
         * last read at the same epoch (defect 2), or it acts under a registry it created less than a TTL ago (defect 1).
         */
        String signature() {
            List<String> signs = new ArrayList<>();
            RegistryText read = lastRegistry;
            if (read != null) {
                RegistryText.Entry mine = read.entry(memberId);
                if (mine != null && !mine.owner().equals(owner)) {
                    signs.add("defect 3: acts under the entry of " + mine.owner() + " (generation " + mine.generation()
                            + ")");
                }
                if (read.epoch() == adoptedEpoch && !read.ids().equals(adoptedMembers)) {
                    signs.add("defect 2: acts under epoch " + adoptedEpoch + " as " + adoptedMembers
                            + " while the registry it last read holds epoch " + read.epoch() + " as " + read.ids());
                }
            }
            if (createdEpoch == adoptedEpoch && time.nanoTime() - createdAt < ttl.toNanos()) {
                signs.add("defect 1: acts " + (time.nanoTime() - createdAt) / 1_000_000 + " ms after it created the"
                        + " registry at epoch " + createdEpoch + " (less than a TTL)");
            }
            return signs.isEmpty() ? "" : " [" + owner + ": " + String.join("; ", signs) + "]";
        }

        private String sighting(String key, byte[] content) {
            return key.equals(REGISTRY_KEY) ? PRESENT : leaseOwner(content);
        }

        /** Runs {@code task} after {@code sharedNanos} of true time, unless dead; held while paused. */
        private Cancellable deliver(Runnable task, long sharedNanos) {
            boolean[] cancelled = new boolean[1];
            Runnable guarded = () -> {
                if (!cancelled[0] && !dead) {
                    task.run();
                    if (!node.waking) {
                        // (The tasks held during a pause run one after the other when it ends; on a real machine they
                        // would run at once, so the process is judged once they all ran.)
                        afterTask();
                    }
                }
            };
            time.schedule(() -> {
                if (dead || cancelled[0]) {
                    return;
                }
                if (node.paused && node.process == this) {
                    held.add(guarded);
                } else {
                    guarded.run();
                }
            }, Duration.ofNanos(sharedNanos));
            return () -> cancelled[0] = true;
        }

        private long latency() {
            int r = random.nextInt(100);
            if (healed) {
                return random.nextLong(1_000_000, 400_000_000);
            }
            if (node.slow && r < 60) {
                return random.nextLong(ttl.toNanos() / 4, ttl.toNanos() * 2);
            }
            return r < 97 ? random.nextLong(1_000_000, 400_000_000) : random.nextLong(1_000_000, ttl.toNanos());
        }

        private <T> CompletionStage<T> send(String key, Supplier<T> apply) {
            requests++;
            CompletableFuture<T> answer = new CompletableFuture<>();
            Link link = node.link.toward(key.equals(REGISTRY_KEY), key.equals(memberKey(memberId)));
            switch (link) {
                case REFUSED -> answer(() -> answer.completeExceptionally(
                        new BackendException(BackendException.Kind.UNREACHABLE, "refused")), random.nextLong(1_000_000, 50_000_000));
                case BLACKHOLE -> {
                }
                default -> {
                    boolean oneWay = link == Link.ONE_WAY;
                    boolean lost = !healed && random.nextInt(100) < 3;
                    time.schedule(() -> {
                        T result = apply.get();
                        if (result instanceof WriteResult.Written && (key.equals(REGISTRY_KEY)
                                || !traceLeases.getOrDefault(key, "").equals(leaseTag(key)))) {
                            traceWrite(owner, key);
                        }
                        if (!oneWay && !lost) {
                            answer(() -> answer.complete(result), latency());
                        }
                    }, Duration.ofNanos(latency()));
                }
            }
            return answer;
        }

        @Override
        public CompletionStage<Optional<StoredObject>> read(String key, Duration timeout) {
            long sent = nanoTime();
            return send(key, () -> store.read(key, timeout)).thenApply(read -> {
                if (OutsideDeletes.isSighting(sent, nanoTime(), timeout)) {
                    saw(key, read);
                }
                return read;
            });
        }

        @Override
        public CompletionStage<WriteResult> write(String key, Handle expected, byte[] content, Duration timeout) {
            return send(key, () -> {
                WriteResult applied = store.write(key, expected, content, timeout);
                if (key.equals(REGISTRY_KEY) && expected.isNone() && applied instanceof WriteResult.Written) {
                    // The store's history: this write created a registry, in the current life of the record.
                    lives.putIfAbsent(RegistryText.parse(content).incarnation(), registryIncarnation);
                }
                return applied;
            }).thenApply(result -> {
                if (result instanceof WriteResult.Written) {
                    lastSeen.put(key, sighting(key, content));
                    if (key.equals(REGISTRY_KEY)) {
                        lastRegistry = RegistryText.parse(content);
                        if (expected.isNone()) {
                            createdEpoch = lastRegistry.epoch();
                            createdAt = time.nanoTime();
                        }
                    }
                }
                return result;
            });
        }

        @Override
        public CompletionStage<DeleteResult> delete(String key, Handle expected, Duration timeout) {
            return send(key, () -> store.delete(key, expected, timeout)).thenApply(result -> {
                if (result == DeleteResult.DELETED) {
                    lastSeen.put(key, "");
                }
                return result;
            });
        }

        @Override
        public String describe() {
            return "sim-store";
        }
    }

    static String summary(List<Result> results) {
        long samples = results.stream().mapToLong(Result::samples).sum();
        long changes = results.stream().mapToLong(Result::ownerChanges).sum();
        long faults = results.stream().mapToLong(Result::faults).sum();
        long requests = results.stream().mapToLong(Result::requests).sum();
        double hours = results.stream().mapToLong(r -> r.simulated().toSeconds()).sum() / 3600.0;
        long failed = results.stream().filter(r -> r.violation() != null).count();
        SimStats merged = new SimStats();
        results.forEach(r -> merged.merge(r.stats()));
        Map<String, Long> counters = new TreeMap<>(merged.counters);
        return String.format("%d schedules, %d failed; %.1f simulated hours; %d faults; %d store requests; %d samples"
                + " of %d keys; %d changes of acting owner checked%s", results.size(), failed, hours, faults, requests,
                samples, KEYS, changes, counters.isEmpty() ? "" : "; " + counters);
    }
}
