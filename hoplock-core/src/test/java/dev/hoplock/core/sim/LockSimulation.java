package dev.hoplock.core.sim;

import dev.hoplock.core.LockSimulationSeams;
import dev.hoplock.core.NamedLocks;
import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockHandle;
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

/**
 * One deterministic schedule of named locks: 3 to 5 machines, each with a real {@link NamedLocks} on its own clocks,
 * all on one {@link VirtualTime}, over one linearisable store reached through a faulty network. Everything random is
 * drawn from one {@link SplittableRandom} seeded with {@link #seed}; everything runs on the calling thread, so a seed
 * replays the same schedule.
 *
 * <p>The fault model is the elector simulation's core: every machine has a fixed wall-clock offset within +-TTL and a
 * monotonic rate within +-1%; requests and answers take 1-50 ms, 3% of them up to 2.5 TTL (late answers); windows of
 * request loss (hung or reset), answer loss after the write applied (unknown outcomes), 409 refusals without effect;
 * process pauses (stop-the-world, up to 2.5 TTL), kill -9 and restart with a new owner id. Clients compete for two lock
 * names: take a lock (keep-alive on 7 in 10 acquisitions), work in steps while {@link LockHandle#isHeld()}, then release
 * it (8 in 10) or abandon it. Not modelled here (the elector simulation covers them for the shared rule types):
 * scheduler failures, synchronous answers, machine suspends, deletes from outside.
 *
 * <p>The checker runs after every task: per name at most one living machine has a handle that {@link LockHandle#isHeld()}
 * (its own clocks decide); every new acquisition's fencing token is above every earlier one; no work step runs with a
 * token below one that has already worked. After the faults heal, each name must be acquired again within 4 TTL.
 */
final class LockSimulation {

    static final Instant START = Instant.parse("2026-12-01T10:00:00Z");
    private static final String[] NAMES = {"jobs/report", "jobs/cleanup"};
    private static final long MS = 1_000_000L;

    final long seed;
    private final SplittableRandom random;
    private final boolean trustExpiresAt;
    final VirtualTime time = new VirtualTime(START);
    private final InMemoryBackend store = new InMemoryBackend();
    final Duration ttl;
    private final Duration requestTimeout;
    private final List<Node> nodes = new ArrayList<>();
    final Map<String, Long> counters = new TreeMap<>();
    private final Map<String, Long> maxAcquired = new HashMap<>();
    private final Map<String, Long> maxWorked = new HashMap<>();
    private final Map<String, Long> acquiredAfterHeal = new HashMap<>();
    private final List<String> trace = new ArrayList<>();
    private double requestLoss;
    private double answerLoss;
    private double conflicts;
    private boolean healed;
    private String violation;
    long checks;
    /** The outcome of {@link #run()}, kept by the test that ran it. */
    String failure;
    /** A planted bug applied to every machine's builder ("the checker has teeth"); none by default. */
    java.util.function.UnaryOperator<NamedLocks.Builder> planted = java.util.function.UnaryOperator.identity();

    LockSimulation(long seed, boolean trustExpiresAt) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.trustExpiresAt = trustExpiresAt;
        this.ttl = random.nextBoolean() ? Duration.ofSeconds(10) : Duration.ofSeconds(30);
        this.requestTimeout = random.nextBoolean() ? ttl.dividedBy(10) : ttl.dividedBy(3);
    }

    /** Runs the schedule; returns null when every invariant held, else the violation with the trace's tail. */
    String run() {
        try {
            int count = 3 + random.nextInt(3);
            for (int i = 0; i < count; i++) {
                Node node = new Node("m" + i, Duration.ofNanos((long) ((random.nextDouble() * 2 - 1) * ttl.toNanos())),
                        1 + (random.nextDouble() * 2 - 1) * 0.01, random.nextLong());
                nodes.add(node);
                node.start();
            }
            long chaos = (60 + random.nextInt(91)) * 1_000 * MS;
            for (long t = random.nextLong(1_000 * MS, 5_000 * MS); t < chaos;
                 t += (long) (-Math.log(1 - random.nextDouble()) * 5_000 * MS)) {
                time.schedule(this::injectFault, Duration.ofNanos(t));
            }
            time.schedule(this::heal, Duration.ofNanos(chaos));
            advance(chaos);
            advance(ttl.toNanos() * 4);
            if (violation == null) {
                for (String name : NAMES) {
                    if (acquiredAfterHeal.getOrDefault(name, 0L) == 0) {
                        violation = "liveness: '" + name + "' was not acquired within 4 TTL after the faults healed";
                    }
                }
            }
        } catch (RuntimeException e) {
            violation = "unexpected " + e;
        } finally {
            Thread.interrupted();
        }
        if (violation == null) {
            return null;
        }
        return "seed " + seed + " (ttl " + ttl.toSeconds() + "s, request timeout " + requestTimeout.toMillis()
                + "ms): " + violation + "\n  " + String.join("\n  ", trace.subList(Math.max(0, trace.size() - 40),
                trace.size()));
    }

    private void advance(long nanos) {
        long end = time.nanoTime() + nanos;
        while (violation == null && time.nanoTime() < end) {
            time.advance(Duration.ofNanos(Math.min(100 * MS, end - time.nanoTime())));
        }
    }

    private void count(String counter) {
        counters.merge(counter, 1L, Long::sum);
    }

    private void trace(String line) {
        trace.add(String.format("%9.3fs %s", time.nanoTime() / 1e9, line));
        if (trace.size() > 400) {
            trace.subList(0, 200).clear();
        }
    }

    // ------------------------------------------------------------------ checker

    private void check() {
        checks++;
        for (String name : NAMES) {
            List<String> holders = new ArrayList<>();
            for (Node node : nodes) {
                LockHandle handle = node.alive ? node.handles.get(name) : null;
                if (handle != null && handle.isHeld()) {
                    holders.add(node.id + " (token " + handle.token() + ")");
                }
            }
            if (holders.size() > 1 && violation == null) {
                violation = "two holders of '" + name + "' at once: " + holders;
            }
        }
    }

    private void acquired(Node node, String name, LockHandle handle) {
        long previous = maxAcquired.getOrDefault(name, 0L);
        if (handle.token() <= previous && violation == null) {
            violation = node.id + " acquired '" + name + "' with token " + handle.token() + ", not above " + previous;
        }
        maxAcquired.put(name, Math.max(previous, handle.token()));
        if (healed) {
            acquiredAfterHeal.merge(name, 1L, Long::sum);
        }
        count("lock.acquired");
        trace(node.id + " acquired " + name + " token " + handle.token());
    }

    private void worked(Node node, String name, long token) {
        long newest = maxWorked.getOrDefault(name, 0L);
        if (token < newest && violation == null) {
            violation = node.id + " worked under '" + name + "' with token " + token + " after token " + newest
                    + " had worked";
        }
        maxWorked.put(name, Math.max(newest, token));
        count("work.steps");
    }

    // ------------------------------------------------------------------ faults

    private void injectFault() {
        if (healed) {
            return;
        }
        Node node = nodes.get(random.nextInt(nodes.size()));
        int k = random.nextInt(100);
        if (k < 30) {
            if (!node.alive || node.paused) {
                return;
            }
            long pause = (long) (random.nextDouble() * 2.5 * ttl.toNanos());
            count(pause > ttl.toNanos() ? "fault.pause-longer-than-ttl" : "fault.pause");
            trace(node.id + " PAUSE " + pause / MS + "ms");
            node.paused = true;
            time.schedule(node::resume, Duration.ofNanos(pause));
        } else if (k < 50) {
            if (!node.alive) {
                return;
            }
            count("fault.kill");
            trace(node.id + " KILL -9");
            node.kill();
            time.schedule(() -> {
                if (!node.alive) {
                    node.start();
                }
            }, Duration.ofNanos((long) (random.nextDouble() * ttl.toNanos())));
        } else {
            long window = (long) ((0.5 + random.nextDouble() * 1.5) * ttl.toNanos());
            double rate = 0.2 + random.nextDouble() * 0.5;
            int kind = random.nextInt(3);
            if (kind == 0) {
                requestLoss = rate;
                count("fault.request-loss-window");
            } else if (kind == 1) {
                answerLoss = rate;
                count("fault.answer-loss-window");
            } else {
                conflicts = rate;
                count("fault.conflict-409-window");
            }
            trace("NETWORK window kind " + kind + " rate " + rate + " for " + window / MS + "ms");
            time.schedule(() -> {
                requestLoss = 0;
                answerLoss = 0;
                conflicts = 0;
            }, Duration.ofNanos(window));
        }
    }

    private void heal() {
        healed = true;
        requestLoss = 0;
        answerLoss = 0;
        conflicts = 0;
        trace("HEAL");
        for (Node node : nodes) {
            if (node.paused) {
                node.resume();
            }
            if (!node.alive) {
                node.start();
            }
        }
    }

    // ------------------------------------------------------------------ machines

    /** One machine: its clocks, its timers (dropped when killed, held while paused), its named locks and clients. */
    private final class Node implements TimeSource, Scheduler {
        final String id;
        final Duration wallOffset;
        final double rate;
        final long origin;
        int epoch;
        int incarnation;
        boolean alive;
        boolean paused;
        final List<Runnable> deferred = new ArrayList<>();
        NamedLocks locks;
        final Map<String, LockHandle> handles = new HashMap<>();

        Node(String id, Duration wallOffset, double rate, long origin) {
            this.id = id;
            this.wallOffset = wallOffset;
            this.rate = rate;
            this.origin = origin;
        }

        @Override
        public Instant wallNow() {
            return time.wallNow().plus(wallOffset);
        }

        @Override
        public long nanoTime() {
            return origin + (long) (time.nanoTime() * rate);
        }

        @Override
        public Cancellable schedule(Runnable task, Duration delay) {
            return atShared(task, (long) Math.ceil(Math.max(0, delay.toNanos()) / rate));
        }

        Cancellable atShared(Runnable task, long sharedDelay) {
            int at = epoch;
            return time.schedule(() -> runHere(at, task), Duration.ofNanos(sharedDelay));
        }

        void runHere(int at, Runnable task) {
            if (at != epoch) {
                return;
            }
            if (paused) {
                deferred.add(() -> runHere(at, task));
                return;
            }
            task.run();
            check();
        }

        void resume() {
            if (!paused) {
                return;
            }
            paused = false;
            trace(id + " RESUME");
            List<Runnable> due = new ArrayList<>(deferred);
            deferred.clear();
            due.forEach(Runnable::run);
        }

        void start() {
            alive = true;
            paused = false;
            deferred.clear();
            incarnation++;
            NamedLocks.Builder builder = NamedLocks.builder(new Net(this)).owner(id + "-" + incarnation)
                    .time(this).scheduler(this).fallbackScheduler(this).eventExecutor(Runnable::run)
                    .requestTimeout(requestTimeout).pollInterval(ttl.dividedBy(10));
            locks = planted.apply(trustExpiresAt ? LockSimulationSeams.trustExpiresAt(builder) : builder).build();
            trace(id + " START as " + locks.owner());
            schedule(this::client, Duration.ofMillis(random.nextInt(2_000)));
        }

        void kill() {
            alive = false;
            epoch++;
            handles.clear();
            deferred.clear();
            locks = null; // never closed: a killed process releases nothing
        }

        /** Tries a name now and then; works under it while held. */
        void client() {
            String name = NAMES[random.nextInt(NAMES.length)];
            LockHandle mine = handles.get(name);
            if (mine == null || !mine.isHeld()) {
                NamedLocks current = locks;
                current.tryAcquireAsync(name, ttl).thenAccept(answer -> {
                    if (current != locks) {
                        return;
                    }
                    if (answer instanceof AcquireResult.Acquired got && !got.extended()) {
                        LockHandle handle = got.handle();
                        handles.put(name, handle);
                        acquired(this, name, handle);
                        if (random.nextInt(10) < 7) {
                            handle.keepAlive(ttl.dividedBy(3));
                        }
                        long steps = 1 + random.nextInt(30);
                        work(name, handle, steps);
                    } else if (!answer.acquired()) {
                        count(answer instanceof AcquireResult.HeldByAnother ? "lock.held-by-another"
                                : "lock.unavailable");
                    }
                });
            }
            schedule(this::client, Duration.ofMillis(200 + random.nextInt(1_500)));
        }

        void work(String name, LockHandle handle, long stepsLeft) {
            if (!handle.isHeld()) {
                count("work.stopped-lock-lost");
                return;
            }
            worked(this, name, handle.token());
            if (stepsLeft == 0) {
                if (random.nextInt(10) < 8) {
                    handle.releaseAsync().thenAccept(outcome -> count("release." + outcome));
                } else {
                    handle.stopKeepAlive();
                    count("lock.abandoned");
                }
                return;
            }
            schedule(() -> work(name, handle, stepsLeft - 1), ttl.dividedBy(10));
        }
    }

    /** The network between one machine (one incarnation) and the store. */
    private final class Net implements AsyncBackend {
        private final Node node;

        Net(Node node) {
            this.node = node;
        }

        @Override
        public CompletionStage<Optional<StoredObject>> read(String key, Duration timeout) {
            return send(false, () -> store.read(key, timeout));
        }

        @Override
        public CompletionStage<WriteResult> write(String key, Handle expected, byte[] content, Duration timeout) {
            if (random.nextDouble() < conflicts) {
                count("net.409-without-effect");
                return send(false, () -> new WriteResult.Refused(WriteResult.Refusal.PRECONDITION_FAILED));
            }
            return send(true, () -> store.write(key, expected, content, timeout));
        }

        @Override
        public CompletionStage<DeleteResult> delete(String key, Handle expected, Duration timeout) {
            return send(true, () -> store.delete(key, expected, timeout));
        }

        @Override
        public String describe() {
            return "sim-store";
        }

        private <T> CompletionStage<T> send(boolean mutating, AsyncBackend.BackendCall<T> apply) {
            CompletableFuture<T> answer = new CompletableFuture<>();
            int epoch = node.epoch;
            if (random.nextDouble() < requestLoss) {
                if (random.nextBoolean()) {
                    count("net.request-lost.hung");
                } else {
                    count("net.request-lost.reset");
                    node.atShared(() -> answer.completeExceptionally(new BackendException(
                            BackendException.Kind.TRANSIENT, "connection reset")), latency());
                }
                return answer;
            }
            time.schedule(() -> {
                T value;
                try {
                    value = apply.run();
                } catch (BackendException e) {
                    node.atShared(() -> answer.completeExceptionally(e), latency());
                    return;
                }
                check();
                if (node.epoch != epoch) {
                    return;
                }
                if (mutating && random.nextDouble() < answerLoss) {
                    count("net.answer-lost-after-apply");
                    node.atShared(() -> answer.completeExceptionally(new BackendException(
                            BackendException.Kind.TRANSIENT, "500 after apply")), latency());
                    return;
                }
                node.atShared(() -> answer.complete(value), latency());
            }, Duration.ofNanos(latency()));
            return answer;
        }

        private long latency() {
            if (random.nextInt(100) < 3) {
                count("net.slow");
                return (long) (random.nextDouble() * 2.5 * ttl.toNanos());
            }
            return MS + random.nextLong(50 * MS);
        }
    }
}
