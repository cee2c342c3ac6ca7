package dev.hoplock.core.sim;

import dev.hoplock.core.SimulationSeams;
import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.core.ownership.OwnershipSeams;
import dev.hoplock.core.time.Scheduler;
import dev.hoplock.core.time.TimeSource;
import dev.hoplock.core.time.VirtualTime;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * <p>The checker samples every process that is running (not paused, not dead) every 50 ms of virtual time and after
 * every fault, asking each of 24 keys whether it acts as the owner ({@code ActingGate.tokenIfActing}, the hot path
 * itself). It fails the schedule when two processes act on one key at one sample, or when a key's token does not strictly rise at
 * a change of acting process, or falls for one process. After the chaos every fault heals; every key must then be
 * owned by exactly one process within {@link #LIVENESS_BOUND_TTLS} TTLs (requests then take 1 to 400 ms, none lost).
 */
final class MembershipSimulation {

    static final int KEYS = 24;
    static final int LIVENESS_BOUND_TTLS = 6;
    private static final long SAMPLE_NANOS = 50_000_000L;

    enum Link { UP, REFUSED, BLACKHOLE, ONE_WAY, REGISTRY_DOWN }

    /** What one schedule showed. */
    record Result(long seed, String violation, long samples, long ownerChanges, long faults, long requests,
                  Duration simulated) {
    }

    final long seed;
    final SplittableRandom random;
    final VirtualTime time = new VirtualTime(Instant.parse("2026-12-01T00:00:00Z"));
    private final InMemoryBackend store = new InMemoryBackend();
    private final OwnershipSeams.PlantedDefect defect;
    private final Duration ttl;
    private final List<Node> nodes = new ArrayList<>();
    private final List<String> keys = new ArrayList<>();
    private final Map<String, String> lastActor = new HashMap<>();
    private final Map<String, Long> lastToken = new HashMap<>();
    private final List<String> trace = new ArrayList<>();
    private String violation;
    /** After the heal: requests take 1 to 400 ms and no answer is lost. */
    private boolean healed;
    private long samples;
    private long ownerChanges;
    private long faults;
    private long requests;

    MembershipSimulation(long seed, OwnershipSeams.PlantedDefect defect) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.defect = defect;
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
        int startNow = Math.max(2, machines - random.nextInt(3));
        for (int i = 0; i < machines; i++) {
            Node node = nodes.get(i);
            if (i < startNow) {
                node.startProcess();
            } else {
                long at = random.nextLong(ttl.toNanos() * 6);
                time.schedule(() -> {
                    if (node.process == null) {
                        node.startProcess();
                    }
                }, Duration.ofNanos(at));
            }
        }
        scheduleSampling();
        long chaosNanos = ttl.toNanos() * (6 + random.nextInt(7));
        long end = chaosNanos;
        long at = ttl.toNanos() * 2;
        while (at < end) {
            long when = at;
            time.schedule(this::fault, Duration.ofNanos(when));
            at += random.nextLong(ttl.toNanos() / 5, ttl.toNanos() * 2);
        }
        advance(Duration.ofNanos(end));
        if (violation == null) {
            heal();
            advance(ttl.multipliedBy(LIVENESS_BOUND_TTLS));
            if (violation == null) {
                checkEveryKeyOwned();
            }
        }
        return new Result(seed, violation, samples, ownerChanges, faults, requests, time.elapsed());
    }

    String trace() {
        return String.join("\n", trace.subList(Math.max(0, trace.size() - 300), trace.size()));
    }

    private void advance(Duration duration) {
        long target = time.nanoTime() + duration.toNanos();
        while (violation == null && time.nanoTime() < target) {
            time.advance(Duration.ofNanos(Math.min(SAMPLE_NANOS, target - time.nanoTime())));
        }
    }

    private void scheduleSampling() {
        time.schedule(() -> {
            sample();
            scheduleSampling();
        }, Duration.ofNanos(SAMPLE_NANOS));
    }

    private void log(String what) {
        trace.add(String.format("%10.3fs %s", time.nanoTime() / 1e9, what));
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
            Link link = Link.values()[1 + random.nextInt(Link.values().length - 1)];
            log(node.name + " link " + link + " for " + duration / 1_000_000 + "ms");
            node.link = link;
            long epoch = ++node.linkEpoch;
            time.schedule(() -> {
                if (node.linkEpoch == epoch) {
                    node.link = Link.UP;
                    log(node.name + " link UP");
                }
            }, Duration.ofNanos(duration));
        } else if (kind < 55) {
            if (node.process != null) {
                log(node.name + " KILLED (" + node.process.owner + ")");
                node.kill();
                time.schedule(() -> {
                    if (node.process == null) {
                        node.startProcess();
                    }
                }, Duration.ofNanos(duration));
            }
        } else if (kind < 70) {
            if (node.process != null && !node.paused) {
                log(node.name + " LEAVES gracefully (" + node.process.owner + ")");
                Process leaving = node.process;
                leaving.group.closeAsync().thenRun(() -> {
                    if (node.process == leaving) {
                        node.process = null;
                        log(node.name + " left");
                        time.schedule(() -> {
                            if (node.process == null) {
                                node.startProcess();
                            }
                        }, Duration.ofNanos(duration));
                    }
                });
            }
        } else if (kind < 80) {
            if (node.process == null) {
                node.startProcess();
            }
        } else {
            node.slow = !node.slow;
            log(node.name + (node.slow ? " SLOW link" : " fast link"));
        }
    }

    private void heal() {
        log("HEAL");
        healed = true;
        for (Node node : nodes) {
            node.link = Link.UP;
            node.linkEpoch++;
            node.slow = false;
            if (node.paused) {
                node.resume();
            }
            if (node.process == null) {
                node.startProcess();
            }
        }
    }

    // ------------------------------------------------------------------ the checker

    private void sample() {
        if (violation != null) {
            return;
        }
        samples++;
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
                            + p.owner + " (token " + token + ")");
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
            if (beforeToken == null) {
                continue;
            }
            if (!acting.owner.equals(before)) {
                ownerChanges++;
                if (actingToken <= beforeToken) {
                    fail("key " + key + " moved from " + before + " (token " + beforeToken + ") to " + acting.owner
                            + " with token " + actingToken + ": not higher");
                    return;
                }
            } else if (actingToken < beforeToken) {
                fail("key " + key + ": the token of " + acting.owner + " fell from " + beforeToken + " to "
                        + actingToken);
                return;
            }
        }
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
        }
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
        Process process;
        int incarnation;

        Node(String name, Duration wallOffset, double rate, long origin) {
            this.name = name;
            this.wallOffset = wallOffset;
            this.rate = rate;
            this.origin = origin;
        }

        void startProcess() {
            incarnation++;
            paused = false;
            process = new Process(this, name + "#" + incarnation);
            log(name + " STARTS " + process.owner);
            process.group.start();
        }

        void kill() {
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
                for (Runnable task : due) {
                    if (!p.dead) {
                        task.run();
                    }
                }
            }
        }
    }

    /** One member process: its clocks and scheduler on the machine, its link to the store, its group. */
    final class Process implements TimeSource, Scheduler, AsyncBackend {
        final Node node;
        final String owner;
        final OwnershipGroup group;
        final List<Runnable> held = new ArrayList<>();
        boolean dead;

        Process(Node node, String owner) {
            this.node = node;
            this.owner = owner;
            OwnershipGroup.Builder builder = OwnershipGroup.builder(this, "sim-group").memberId(node.name)
                    .address(node.name + ":7000").owner(owner).ttl(ttl).timeSource(this).scheduler(this)
                    .eventExecutor(Runnable::run).releaseTimeout(Duration.ofSeconds(2));
            OwnershipSeams.electorCustomizer(builder, eb -> SimulationSeams.fallbackScheduler(eb, this));
            if (defect != null) {
                OwnershipSeams.plant(builder, defect);
            }
            this.group = builder.build();
            group.addListener(event -> {
                if (event instanceof dev.hoplock.core.ownership.OwnershipEvent.MembershipChanged changed) {
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
            return deliver(task, shared);
        }

        /** Runs {@code task} after {@code sharedNanos} of true time, unless dead; held while paused. */
        private Cancellable deliver(Runnable task, long sharedNanos) {
            boolean[] cancelled = new boolean[1];
            Runnable guarded = () -> {
                if (!cancelled[0] && !dead) {
                    task.run();
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
            Link link = node.link;
            if (link == Link.REGISTRY_DOWN && !key.endsWith("/registry")) {
                link = Link.UP;
            }
            if (link == Link.REGISTRY_DOWN) {
                link = Link.REFUSED;
            }
            switch (link) {
                case REFUSED -> deliver(() -> answer.completeExceptionally(
                        new BackendException(BackendException.Kind.UNREACHABLE, "refused")), random.nextLong(1_000_000, 50_000_000));
                case BLACKHOLE -> {
                }
                default -> {
                    boolean oneWay = link == Link.ONE_WAY;
                    boolean lost = !healed && random.nextInt(100) < 3;
                    time.schedule(() -> {
                        T result = apply.get();
                        if (!oneWay && !lost) {
                            deliver(() -> answer.complete(result), latency());
                        }
                    }, Duration.ofNanos(latency()));
                }
            }
            return answer;
        }

        @Override
        public CompletionStage<Optional<StoredObject>> read(String key, Duration timeout) {
            return send(key, () -> store.read(key, timeout));
        }

        @Override
        public CompletionStage<WriteResult> write(String key, Handle expected, byte[] content, Duration timeout) {
            return send(key, () -> store.write(key, expected, content, timeout));
        }

        @Override
        public CompletionStage<DeleteResult> delete(String key, Handle expected, Duration timeout) {
            return send(key, () -> store.delete(key, expected, timeout));
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
        Map<String, Long> none = new TreeMap<>();
        return String.format("%d schedules, %d failed; %.1f simulated hours; %d faults; %d store requests; %d samples"
                + " of %d keys; %d changes of acting owner checked%s", results.size(), failed, hours, faults, requests,
                samples, KEYS, changes, none.isEmpty() ? "" : "");
    }
}
