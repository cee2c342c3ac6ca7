package dev.hoplock.core.sim;

import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;
import dev.hoplock.core.time.VirtualTime;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * One deterministic schedule: 3 to 5 machines, each running a real {@link dev.hoplock.core.election.Elector} on its own
 * clocks ({@link NodeClock}), all on one {@link VirtualTime}, over one simulated linearisable store ({@link SimStore})
 * reached through a faulty network ({@link NetBackend}). Everything random is drawn from one {@link SplittableRandom}
 * seeded with {@link #seed}, and everything runs on the calling thread, so a seed replays the same schedule event for
 * event.
 *
 * <p>Phases:
 * <ol>
 *   <li><b>Chaos</b> ({@link Config#chaos()}): faults start at random instants (mean gap 6 s), many aimed at the
 *       current leader: process pauses (40% of them longer than a TTL), partitions (refused, blackholed, one-way),
 *       slow links (answers up to 2.5 TTL late), request and response loss windows, error bursts (503, 500 after
 *       apply, 409), kill -9 and restart with a new owner, graceful close and restart, step-down, wall-clock steps.
 *       On top, every machine has a fixed wall-clock offset within +-{@link Config#maxSkew()}, a monotonic clock
 *       rate within +-{@link Config#maxDrift()} and its own monotonic origin (a third near {@code Long.MAX_VALUE}).
 *       A second stream injects the {@link Fault}s of issue 9: synchronous answers, a failing scheduler, deletes of
 *       the lease object from outside, machine suspends, step-downs during in-flight renewals. Every process runs
 *       leader work ({@link Worker}s) throughout.</li>
 *   <li><b>Heal</b>: every fault ends, paused processes wake, dead ones restart. A leader must exist within
 *       {@link #recoveryBound()}; it must then keep leading, unchallenged, for two TTLs.</li>
 *   <li><b>Failover</b>: the leader is killed (no release); another must lead within {@link #failoverBound()}.</li>
 *   <li><b>Handover</b>: the new leader closes gracefully; another must lead within {@link #handoverBound()}.</li>
 *   <li><b>Step-down during a renewal</b> (answered, then refused with a 409 that leaves the record ours): another
 *       process must lead within {@link #handoverBound()}.</li>
 *   <li><b>Failover, clocks agreeing</b>: every wall-clock offset is set to zero (rate drift stays), the record is
 *       refreshed, the leader is killed again; another must lead within {@link #syncedFailoverBound()}.</li>
 * </ol>
 * The {@link Checker} runs after every task of every phase.
 */
final class Simulation extends SimWorld {

    static final String KEY = "sim/lease";
    static final Instant START = Instant.parse("2026-11-30T10:00:00Z");
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;

    /**
     * What issue 9 added to the schedules, each of which can be switched off ({@code -Dhoplock.sim.faults}) to
     * attribute a failure to one of them.
     */
    enum Fault {
        /** Not a fault: every process runs {@link Worker}s that open scopes (the leader-work invariants need them). */
        LEADER_WORK,
        /** Windows in which a machine's requests are often answered inside the call, before any timer can run. */
        SYNC_ANSWERS,
        /** Windows in which the elector's {@code schedule()} throws RejectedExecutionException or a RuntimeException. */
        SCHEDULER_FAILURE,
        /** The lease object is deleted from outside (an operator, a bucket lifecycle rule). */
        EXTERNAL_DELETE,
        /** A machine is suspended: its monotonic clock and timers stop while the wall clock goes on. */
        SUSPEND,
        /** A quarter of the schedules give the machines different TTLs (10 s and 30 s), with agreeing wall clocks. */
        MIXED_TTL,
        /** The leader steps down while a renewal is in flight; the renewal is answered, refused (409) or lost. */
        STEP_DOWN_DURING_RENEWAL;

        /** Parses {@code all}, {@code none} or a comma-separated list such as {@code sync-answers,suspend}. */
        static Set<Fault> parse(String spec) {
            return FaultSwitches.parse(Fault.class, spec);
        }
    }

    /** The settings of one schedule, drawn from the seed. {@code ttl}: the longest TTL of any machine. */
    record Config(int nodes, Duration ttl, Duration renew, Duration poll, Duration margin, Duration requestTimeout,
                  boolean releaseByDelete, Duration maxSkew, double maxDrift, Duration chaos, boolean mixedTtl,
                  Set<Fault> faults) {

        static Config draw(SplittableRandom r, Set<Fault> faults) {
            Duration ttl = r.nextBoolean() ? Duration.ofSeconds(10) : Duration.ofSeconds(30);
            Duration renew = ttl.dividedBy(3);
            Duration poll = r.nextBoolean() ? ttl.dividedBy(15) : ttl.dividedBy(6);
            Duration margin = ttl.dividedBy(10);
            int t = r.nextInt(3);
            Duration requestTimeout = t == 0 ? renew : t == 1 ? ttl.dividedBy(10) : ttl.multipliedBy(2);
            boolean byDelete = r.nextInt(6) == 0;
            Duration chaos = Duration.ofSeconds(60 + r.nextInt(91));
            int nodes = 3 + r.nextInt(3);
            boolean mixed = faults.contains(Fault.MIXED_TTL) && r.nextInt(4) == 0;
            if (mixed) {
                // Agreeing wall clocks: the expiry by the wall clock protects the longer-TTL writer.
                ttl = Duration.ofSeconds(30);
                return new Config(nodes, ttl, ttl.dividedBy(3), ttl.dividedBy(6), ttl.dividedBy(10), ttl.multipliedBy(2),
                        byDelete, Duration.ZERO, 0.01, chaos, true, faults);
            }
            return new Config(nodes, ttl, renew, poll, margin, requestTimeout, byDelete, ttl, 0.01, chaos, false, faults);
        }

        /** The machines' settings when all share one TTL. */
        Machine.Timing timing() {
            return new Machine.Timing(ttl, renew, poll, margin, requestTimeout);
        }

        @Override
        public String toString() {
            return nodes + " nodes, " + (mixedTtl ? "mixed TTLs (per machine)" : timing().toString()) + ", release by "
                    + (releaseByDelete ? "delete" : "expired record") + ", wall skew up to +-" + maxSkew.toSeconds()
                    + "s, clock rate drift up to +-" + (maxDrift * 100) + "%, chaos " + chaos.toSeconds() + "s"
                    + (faults.equals(EnumSet.allOf(Fault.class)) ? "" : ", new faults " + faults);
        }
    }

    /** The kinds of store-side error bursts. */
    enum BurstKind { THROTTLE_503, INTERNAL_500_AFTER_APPLY, CONFLICT_409 }

    /** An error burst in progress: a fraction {@code rate} of requests meets {@code kind}. */
    record Burst(BurstKind kind, double rate) {
    }

    /**
     * What one schedule measured: time to a leader after the heal, after kill -9 of the leader with skewed wall clocks,
     * after a graceful close, and after kill -9 of the leader once the wall clocks agree (rate drift remains).
     */
    record Result(long seed, Config config, SimStats stats, long recoveryNanos, long failoverNanos,
                  long handoverNanos, long syncedFailoverNanos) {
    }

    final long seed;
    final Config config;
    final Trace trace;
    final Checker checker;
    final SimStore store;
    final List<Machine> machines = new ArrayList<>();
    private final MachineFaults machineFaults = new MachineFaults(this,
            m -> m.process != null && m.process.alive() ? m.process.clock : null);

    double requestLoss;
    double responseLoss;
    Burst burst;
    /** The whole store is down (a server restart): requests are refused or hang. */
    boolean outage;
    private long outageEpoch;
    private boolean healed;
    private SimProcess leader;
    private Long watchSince;
    private Long watchMet;
    private SimulationFailure failure;

    /** How many times the lease object was deleted from outside in this schedule. */
    int externalDeletes;
    /** A machine was still suspended when the faults healed. */
    private boolean suspendedAtHeal;
    /** No process starts before this shared instant (a TTL after a delete from outside). */
    private long noStartsUntil;

    Simulation(long seed, int traceLines) {
        this(seed, traceLines, EnumSet.allOf(Fault.class));
    }

    Simulation(long seed, int traceLines, Set<Fault> faults) {
        super(seed, START);
        this.seed = seed;
        this.config = Config.draw(random, faults);
        this.trace = new Trace(traceLines);
        this.checker = new Checker(this);
        this.store = new SimStore(checker);
    }

    // ------------------------------------------------------------------ the schedule

    Result run() {
        try {
            return phases();
        } catch (SimulationFailure e) {
            throw e;
        } catch (Throwable e) {
            throw fail("unexpected " + e, e);
        } finally {
            // Scopes interrupt the thread the schedule ran on; the next schedule on it starts clean.
            Thread.interrupted();
        }
    }

    private Result phases() {
        trace(null, "seed " + seed + ": " + config);
        for (int i = 0; i < config.nodes(); i++) {
            long origin = random.nextInt(3) == 0 ? Long.MAX_VALUE - random.nextLong(600 * S) : random.nextLong();
            double rate = 1 + (random.nextDouble() * 2 - 1) * config.maxDrift();
            Machine machine = new Machine("m" + i, origin, rate, drawTiming(i), uniformOffset());
            machines.add(machine);
            trace(null, machine.name + ": wall offset " + machine.wallOffset.toMillis() + "ms, rate " + rate + ", "
                    + machine.timing);
            global(() -> restart(machine), uniform(0, machine.timing.poll().toNanos() * 2));
        }
        if (config.mixedTtl()) {
            stats.count("fault.mixed-ttl-schedule");
        }
        long healAt = config.chaos().toNanos();
        for (long t = uniform(S, 10 * S); t < healAt; t += (long) (-Math.log(1 - random.nextDouble()) * 6 * S)) {
            global(this::injectFault, t);
        }
        if (config.faults().stream().anyMatch(f -> f != Fault.MIXED_TTL && f != Fault.LEADER_WORK)) {
            for (long t = uniform(S, 10 * S); t < healAt; t += (long) (-Math.log(1 - random.nextDouble()) * 10 * S)) {
                global(this::injectNewFault, t);
            }
        }
        global(this::heal, healAt);
        advanceTo(healAt);

        // Recovery: a leader within the bound.
        long recovery = awaitLeader(healAt, recoveryBound(), "after the faults healed");
        // Once every message sent before the heal has landed or been answered, and every request sent before it has
        // been answered or timed out, the leader must be stable.
        // A machine woken from a suspend at the heal, or less than a TTL before it, may still end the term it had (by
        // the wall clock, before its monotonic renewal timer fires) and begin a new one: that settles within a TTL.
        long settled = healAt + maxRequestTimeout() + (suspendedAtHeal ? config.ttl().toNanos() : 0);
        advanceTo(Math.max(time.nanoTime(), Math.max(lastNetworkDue, settled)) + 100 * MS);
        awaitLeader(time.nanoTime(), failoverBound(), "after the messages sent before the heal were delivered");
        SimProcess elected = leader;
        long termsBefore = stats.terms;
        advanceBy(config.ttl().toNanos() * 2);
        if (leader != elected || stats.terms != termsBefore) {
            throw fail("the leader " + elected + " did not keep leading for two TTLs without faults; now " + leader
                    + ", " + (stats.terms - termsBefore) + " new terms", null);
        }

        // Failover: kill -9 of the leader.
        long killAt = time.nanoTime();
        trace(elected, "KILL -9 (failover phase)");
        elected.clock.kill();
        stats.count("fault.kill-leader");
        long failover = awaitLeader(killAt, failoverBound(), "after the leader was killed");
        restart(elected.machine);

        // Handover: graceful close of the new leader.
        SimProcess second = leader;
        long closeAt = time.nanoTime();
        second.close(" (handover phase)");
        long handover = awaitLeader(closeAt, handoverBound(), "after the leader closed gracefully");
        restart(second.machine);

        // Step-down while a renewal is in flight, once answered and once refused with a 409 that leaves the record
        // ours: the release must not be dropped, so another process leads within a handover.
        if (config.faults().contains(Fault.STEP_DOWN_DURING_RENEWAL)) {
            for (SimProcess.RenewalFate fate : List.of(SimProcess.RenewalFate.ANSWERED,
                    SimProcess.RenewalFate.REFUSED_409)) {
                awaitLeader(time.nanoTime(), failoverBound(), "before a step-down during a renewal");
                SimProcess stepping = leader;
                stepping.stepDownAtRenewal = fate;
                stepping.steppedDownDuringRenewalAt = -1;
                long asked = time.nanoTime();
                while (stepping.steppedDownDuringRenewalAt < 0
                        && time.nanoTime() - asked < stepping.machine.timing.renew().toNanos() * 2) {
                    advanceBy(10 * MS);
                }
                if (stepping.steppedDownDuringRenewalAt < 0) {
                    throw fail(stepping + " sent no renewal within two renew intervals", null);
                }
                long steppedDown = stepping.steppedDownDuringRenewalAt;
                awaitLeader(steppedDown, handoverBound(), "after the leader stepped down during a renewal ("
                        + fate + ")");
                if (leader == stepping && !config.releaseByDelete()) {
                    // (After a release by delete every follower waits as long as the stepping process pauses its
                    // campaign, so with release by delete it may win again.)
                    throw fail(stepping + " leads again right after stepping down", null);
                }
            }
        }

        // Failover once more, with the wall clocks in agreement (NTP fixed): the TTL of local observation decides.
        for (Machine m : machines) {
            m.wallOffset = Duration.ZERO;
        }
        trace(null, "WALL CLOCKS synchronised");
        advanceBy(config.ttl().toNanos() * 2);
        awaitLeader(time.nanoTime(), failoverBound(), "after the wall clocks were synchronised");
        SimProcess third = leader;
        long syncedKillAt = time.nanoTime();
        trace(third, "KILL -9 (failover with synchronised wall clocks)");
        third.clock.kill();
        stats.count("fault.kill-leader");
        long syncedFailover = awaitLeader(syncedKillAt, syncedFailoverBound(),
                "after the leader was killed (wall clocks synchronised)");
        advanceBy(config.ttl().toNanos());
        stats.checks = checker.checks;
        stats.virtualNanos = time.nanoTime();
        return new Result(seed, config, stats, recovery, failover, handover, syncedFailover);
    }

    /** Advances until a living process leads; fails after {@code bound}. Returns the time it took. */
    private long awaitLeader(long since, long bound, String when) {
        checker.check();
        watchSince = since;
        watchMet = leader != null ? time.nanoTime() : null;
        long deadline = since + bound;
        while (watchMet == null && time.nanoTime() < deadline) {
            advanceBy(Math.min(deadline - time.nanoTime(), 100 * MS));
        }
        if (watchMet == null) {
            throw fail("no leader within " + Duration.ofNanos(bound) + " " + when, null);
        }
        long took = watchMet - since;
        watchSince = null;
        watchMet = null;
        return took;
    }

    /**
     * From the heal: the last in-flight request may still land 2.5 TTL later and start a new observation; a follower
     * may be waiting out a hung request ({@code requestTimeout}); then a TTL of observation (stretched by rate drift),
     * the writer's wall clock being up to 2 x maxSkew ahead of the reader's, two polls and a second of slack.
     */
    long recoveryBound() {
        long ttl = config.ttl().toNanos();
        return ttl * 5 / 2 + maxRequestTimeout() + failoverBound();
    }

    /** TTL (stretched by rate drift) + 2 polls + the leader's wall clock up to 2 x maxSkew ahead + 1 s. */
    long failoverBound() {
        double drift = (1 + config.maxDrift()) / (1 - config.maxDrift());
        return (long) (config.ttl().toNanos() * drift) + 2 * maxPoll() + 2 * config.maxSkew().toNanos() + S;
    }

    /** TTL (stretched by rate drift) + 2 polls + 1 s: the bound when the wall clocks agree. */
    long syncedFailoverBound() {
        double drift = (1 + config.maxDrift()) / (1 - config.maxDrift());
        return (long) (config.ttl().toNanos() * drift) + 2 * maxPoll() + S;
    }

    /**
     * One poll (the release is seen at the next read) + 1 s. With release by delete, a follower cannot tell the
     * release from a delete outside hoplock, so it waits as for a crashed holder: {@link #failoverBound()}.
     */
    long handoverBound() {
        return config.releaseByDelete() ? failoverBound() : maxPoll() + S;
    }

    private long maxPoll() {
        return machines.stream().mapToLong(m -> m.timing.poll().toNanos()).max().orElseThrow();
    }

    private long maxRequestTimeout() {
        return machines.stream().mapToLong(m -> m.timing.requestTimeout().toNanos()).max().orElseThrow();
    }

    /** The settings of machine {@code i}: the schedule's, or in a mixed-TTL schedule 10 s for m0, 30 s for m1, any for the rest. */
    private Machine.Timing drawTiming(int i) {
        if (!config.mixedTtl()) {
            return config.timing();
        }
        Duration ttl = i == 0 ? Duration.ofSeconds(10) : i == 1 ? Duration.ofSeconds(30)
                : Duration.ofSeconds(random.nextBoolean() ? 10 : 30);
        Duration renew = ttl.dividedBy(3);
        Duration poll = random.nextBoolean() ? ttl.dividedBy(15) : ttl.dividedBy(6);
        int t = random.nextInt(3);
        Duration requestTimeout = t == 0 ? renew : t == 1 ? ttl.dividedBy(10) : ttl.multipliedBy(2);
        return new Machine.Timing(ttl, renew, poll, ttl.dividedBy(10), requestTimeout);
    }

    private void advanceTo(long target) {
        advanceBy(target - time.nanoTime());
    }

    private void advanceBy(long nanos) {
        if (nanos > 0) {
            time.advance(Duration.ofNanos(nanos));
        }
        if (failure != null) {
            throw failure;
        }
    }

    // ------------------------------------------------------------------ faults

    private void injectFault() {
        if (healed) {
            return;
        }
        SimProcess target = target();
        int k = random.nextInt(100);
        if (k < 20) {
            if (target == null || target.clock.paused()) {
                return;
            }
            long ttl = config.ttl().toNanos();
            long pause = random.nextInt(10) < 4 ? uniform(ttl, ttl * 5 / 2) : uniform(50 * MS, ttl);
            stats.count(pause > ttl ? "fault.pause-longer-than-ttl" : "fault.pause-shorter-than-ttl");
            trace(target, "PAUSE for " + Duration.ofNanos(pause).toMillis() + "ms");
            target.clock.pause();
            global(() -> wake(target), pause);
        } else if (k < 35) {
            Machine m = target == null ? machines.get(random.nextInt(machines.size())) : target.machine;
            if (m.link != Machine.Link.UP) {
                return;
            }
            Machine.Link link = Machine.Link.values()[1 + random.nextInt(3)];
            long length = uniform(S, config.ttl().toNanos() * 2);
            stats.count("fault.partition-" + link.name().toLowerCase());
            trace(null, m.name + " PARTITION " + link + " for " + Duration.ofNanos(length).toMillis() + "ms");
            m.link = link;
            long epoch = nextEpoch();
            m.linkEpoch = epoch;
            global(() -> {
                if (m.linkEpoch == epoch) {
                    m.link = Machine.Link.UP;
                    trace(null, m.name + " partition ends");
                }
            }, length);
        } else if (k < 45) {
            Machine m = target == null ? machines.get(random.nextInt(machines.size())) : target.machine;
            long length = uniform(5 * S, config.ttl().toNanos() * 2);
            stats.count("fault.slow-link");
            trace(null, m.name + " SLOW LINK for " + Duration.ofNanos(length).toMillis() + "ms");
            m.slow = true;
            long epoch = nextEpoch();
            m.slowEpoch = epoch;
            global(() -> {
                if (m.slowEpoch == epoch) {
                    m.slow = false;
                }
            }, length);
        } else if (k < 55) {
            requestLoss = 0.05 + random.nextDouble() * 0.45;
            responseLoss = 0.05 + random.nextDouble() * 0.45;
            long length = uniform(5 * S, config.ttl().toNanos());
            stats.count("fault.loss-window");
            trace(null, "LOSS window: requests " + (int) (requestLoss * 100) + "%, answers " + (int) (responseLoss * 100)
                    + "% for " + Duration.ofNanos(length).toMillis() + "ms");
            long epoch = nextEpoch();
            lossEpoch = epoch;
            global(() -> {
                if (lossEpoch == epoch) {
                    requestLoss = 0;
                    responseLoss = 0;
                }
            }, length);
        } else if (k < 65) {
            BurstKind kind = BurstKind.values()[random.nextInt(BurstKind.values().length)];
            burst = new Burst(kind, 0.3 + random.nextDouble() * 0.7);
            long length = uniform(S, config.ttl().toNanos() / 2);
            stats.count("fault.burst-" + kind.name().toLowerCase());
            trace(null, "BURST " + kind + " at " + (int) (burst.rate() * 100) + "% for "
                    + Duration.ofNanos(length).toMillis() + "ms");
            long epoch = nextEpoch();
            burstEpoch = epoch;
            global(() -> {
                if (burstEpoch == epoch) {
                    burst = null;
                }
            }, length);
        } else if (k < 70) {
            long length = uniform(config.ttl().toNanos() / 2, config.ttl().toNanos() * 2);
            stats.count("fault.store-outage");
            trace(null, "STORE OUTAGE for " + Duration.ofNanos(length).toMillis() + "ms");
            outage = true;
            long epoch = nextEpoch();
            outageEpoch = epoch;
            global(() -> {
                if (outageEpoch == epoch) {
                    outage = false;
                    trace(null, "store outage ends");
                }
            }, length);
        } else if (k < 78) {
            if (target == null) {
                return;
            }
            stats.count("fault.kill");
            trace(target, "KILL -9");
            target.clock.kill();
            Machine m = target.machine;
            global(() -> restart(m), uniform(0, 60 * S));
        } else if (k < 85) {
            if (target == null || target.closing) {
                return;
            }
            stats.count("fault.graceful-close");
            target.clock.scheduleShared(() -> target.close("").whenComplete(
                    (v, e) -> global(() -> restart(target.machine), uniform(0, 30 * S))), 0);
        } else if (k < 94) {
            if (target == null) {
                return;
            }
            stats.count("fault.step-down");
            target.clock.scheduleShared(() -> target.stepDown(""), 0);
        } else if (!config.mixedTtl() && time.nanoTime() < config.chaos().toNanos() - 2 * config.ttl().toNanos()) {
            // (Not just before the heal: a forward step ends the term early, and the new term would fall into the
            // calm after the heal.)
            Machine m = target == null ? machines.get(random.nextInt(machines.size())) : target.machine;
            if (!machineFaults.mayStepWall(m, m.timing.ttl().toNanos())) {
                return;
            }
            machineFaults.stepWall(m, uniformOffset());
        }
    }

    /** One of the enabled {@link Fault}s, at a random instant of the chaos phase. */
    private void injectNewFault() {
        if (healed) {
            return;
        }
        List<Fault> enabled = new ArrayList<>(config.faults());
        enabled.remove(Fault.MIXED_TTL);
        enabled.remove(Fault.LEADER_WORK);
        Fault fault = enabled.get(random.nextInt(enabled.size()));
        SimProcess target = target();
        Machine m = target == null ? machines.get(random.nextInt(machines.size())) : target.machine;
        long ttl = m.timing.ttl().toNanos();
        switch (fault) {
            case SYNC_ANSWERS -> machineFaults.synchronousAnswers(m, ttl);
            case SCHEDULER_FAILURE -> machineFaults.schedulerFailure(m, ttl);
            case EXTERNAL_DELETE -> {
                // Detected, not prevented: only a process that saw the record held can know that it disappeared.
                // So the delete comes only when every other living process last saw it held by its holder now, and
                // no process starts for a TTL after it (a new one would take the free key at once, as documented).
                String holder = checker.holder();
                if (holder == null || time.nanoTime() > config.chaos().toNanos() - 2 * config.ttl().toNanos()) {
                    // (Not just before the heal: the holder's loss and new term would fall into the calm after it.)
                    return;
                }
                List<OutsideDeletes.Witness> living = new ArrayList<>();
                for (Machine other : machines) {
                    SimProcess p = other.process;
                    if (p != null && p.alive() && !p.closing) {
                        living.add(new OutsideDeletes.Witness(p.owner, p.lastSeenOwner));
                    }
                }
                if (!OutsideDeletes.everyOtherSaw(holder, living)) {
                    return;
                }
                if (store.deleteFromOutside()) {
                    externalDeletes++;
                    noStartsUntil = OutsideDeletes.noStartsUntil(time.nanoTime(), config.ttl().toNanos());
                    stats.count("fault.external-delete");
                }
            }
            case SUSPEND -> machineFaults.suspend(m, ttl);
            case STEP_DOWN_DURING_RENEWAL -> {
                if (leader != null && leader.alive() && !leader.closing) {
                    leader.stepDownAtRenewal = SimProcess.RenewalFate.values()[random.nextInt(3)];
                }
            }
            case MIXED_TTL, LEADER_WORK -> throw new IllegalStateException("not a fault of the chaos phase");
        }
    }

    private long lossEpoch;
    private long burstEpoch;
    private long lastNetworkDue;

    /** Half the time the current leader, otherwise a random living process; null if none. */
    private SimProcess target() {
        if (leader != null && leader.alive() && random.nextBoolean()) {
            return leader;
        }
        List<SimProcess> living = new ArrayList<>();
        for (Machine m : machines) {
            if (m.process != null && m.process.alive() && !m.process.closing) {
                living.add(m.process);
            }
        }
        return living.isEmpty() ? null : living.get(random.nextInt(living.size()));
    }

    private void wake(SimProcess p) {
        if (p.clock.paused()) {
            trace(p, "WAKE");
            p.clock.resume();
        }
    }

    private void heal() {
        healed = true;
        trace(null, "HEAL: every fault ends");
        requestLoss = 0;
        responseLoss = 0;
        burst = null;
        nextEpoch();
        for (Machine m : machines) {
            m.link = Machine.Link.UP;
            m.slow = false;
            m.linkEpoch = -1;
            m.slowEpoch = -1;
            // A machine that woke less than a TTL before the heal is still in the suspend's after-effect: its
            // monotonic timers ran late by the suspension, so its term may end by the wall clock before its renewal
            // timer fires (seed 100050141: woke 8 ms before the heal, stepped down 1.45 s after it). It counts as
            // suspended at the heal.
            boolean wokeLately = time.nanoTime() - m.wokeAt() < config.ttl().toNanos();
            suspendedAtHeal |= machineFaults.heal(m) || wokeLately;
            if (m.process != null) {
                m.process.stepDownAtRenewal = null;
                m.process.workers.forEach(Worker::becomeWellBehaved);
            }
        }
        lossEpoch = -1;
        burstEpoch = -1;
        outage = false;
        outageEpoch = -1;
        for (Machine m : machines) {
            if (m.process != null && m.process.alive()) {
                wake(m.process);
            }
            restart(m);
        }
    }

    /** Starts a new process (new owner) on {@code m} unless one is running there. */
    private void restart(Machine m) {
        SimProcess old = m.process;
        if (old != null && old.alive() && !old.closed) {
            return;
        }
        if (time.nanoTime() < noStartsUntil) {
            global(() -> restart(m), noStartsUntil - time.nanoTime());
            return;
        }
        if (old != null) {
            old.clock.kill();
        }
        SimProcess p = new SimProcess(this, m, m.name + "#" + ++m.incarnation);
        m.process = p;
        trace(p, "START");
        p.start();
    }

    // ------------------------------------------------------------------ used by the parts

    @Override
    void traceOn(Machine machine, String action) {
        trace(machine == null ? null : machine.process, action);
    }

    @Override
    void violationOn(Machine machine, String what) {
        violation(machine == null ? null : machine.process, what);
    }

    @Override
    void check() {
        checker.check();
    }

    /** True once every fault has ended. */
    boolean healed() {
        return healed;
    }

    void leaderNow(SimProcess current) {
        leader = current;
        if (current != null && watchSince != null && watchMet == null) {
            watchMet = time.nanoTime();
        }
    }

    void trace(SimProcess p, String action) {
        trace.add(time.nanoTime(), p == null ? null : p.owner, action);
    }

    /** Records a broken invariant (so that it is reported even if a future swallows the throw) and throws it. */
    void violation(SimProcess p, String what) {
        SimulationFailure f = fail("VIOLATION by " + p + ": " + what, null);
        if (failure == null) {
            failure = f;
        }
        throw failure;
    }

    private SimulationFailure fail(String what, Throwable cause) {
        trace(null, "FAILED: " + what);
        return new SimulationFailure("seed " + seed + " (" + config + ") at " + Trace.format(time.nanoTime()) + ": "
                + what + "\n" + trace.dump() + "Replay: mvn -o test -pl hoplock-core -Dtest=SimulationTest"
                + " -Dhoplock.sim.seed=" + seed, cause);
    }

    /** A network delay: 1 to 40 ms after the heal; before it, rare spikes and, on a slow link, up to 2.5 TTL. */
    long latency(Machine m) {
        if (healed) {
            return network(uniform(MS, 40 * MS));
        }
        double u = random.nextDouble();
        long ttl = config.ttl().toNanos();
        long latency;
        if (m.slow) {
            latency = u < 0.5 ? uniform(50 * MS, 500 * MS) : u < 0.8 ? uniform(S, 10 * S) : uniform(ttl / 2, ttl * 5 / 2);
        } else {
            latency = u < 0.005 ? uniform(S, 8 * S) : uniform(MS, 40 * MS);
        }
        if (latency > ttl) {
            stats.count("net.latency-longer-than-ttl");
        }
        return network(latency);
    }

    long shortLatency() {
        return network(uniform(100_000, 5 * MS));
    }

    /** Notes when the last message now on the wire will arrive. */
    private long network(long latency) {
        lastNetworkDue = Math.max(lastNetworkDue, time.nanoTime() + latency);
        return latency;
    }

    private Duration uniformOffset() {
        long skew = config.maxSkew().toNanos();
        return Duration.ofNanos(uniform(-skew, skew + 1));
    }

    static String describe(byte[] content) {
        try {
            LeaseRecord r = LeaseRecordCodec.decode(content);
            return Checker.describe(r);
        } catch (MalformedLeaseRecordException e) {
            return "<corrupt>";
        }
    }
}
