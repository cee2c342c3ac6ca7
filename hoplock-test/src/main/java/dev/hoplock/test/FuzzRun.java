package dev.hoplock.test;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One fuzz run: {@link Settings#electors()} slots, each holding one {@link FuzzedElector} at a time over one key of
 * the backend under test, driven through three phases in real time.
 * <ol>
 *   <li><b>Chaos</b> for {@link Settings#chaos()}: every 50 to 400 ms the driver picks an elector (the leader, more
 *       often than not) and restarts it (a graceful close, or a freeze until the end of the run that leaves the
 *       lease to expire; then a new incarnation with a new owner id takes its slot), asks it to step down, blocks
 *       its scheduler thread for up to 1.2 TTL, or switches its backend stalls on or off. Workers stall, nest scopes
 *       and step down on their own (see {@link LeaderWorker}).</li>
 *   <li><b>Quiet</b>: faults off, the leader asked to step down once per TTL, until at least
 *       {@link Settings#minAcquisitions()} acquisitions happened and two terms recorded work, for at most
 *       {@link Settings#quietLimit()}; not getting there is a liveness failure.</li>
 *   <li><b>Shutdown</b>: frozen electors resumed, every elector closed, workers joined, stalled backend calls and
 *       event streams awaited (each bounded), then the journal goes to {@link FuzzChecker}.</li>
 * </ol>
 * Every random choice derives from {@link Settings#seed()}. Thread timing is not replayed, so a seed reproduces the
 * schedule of faults, not the exact interleaving; replaying a failing seed a few times usually finds it again.
 */
final class FuzzRun {

    private static final Duration DRAIN_LIMIT = Duration.ofSeconds(60);
    private static final Duration WARM_UP_TIMEOUT = Duration.ofSeconds(30);

    /**
     * What a run does.
     *
     * @param key             the lease key all electors share
     * @param electors        how many electors compete at once
     * @param ttl             every elector's TTL (the other timings follow it)
     * @param chaos           how long faults are injected
     * @param quietLimit      how long the quiet phase may wait for liveness
     * @param minAcquisitions how many acquisitions the run needs in all, so that it is not vacuous
     * @param seed            the seed of every random choice
     */
    record Settings(String key, int electors, Duration ttl, Duration chaos, Duration quietLimit, int minAcquisitions,
                    long seed) {
        Settings {
            if (electors < 2) {
                throw new IllegalArgumentException("electors() must be at least 2 (was " + electors + "): one elector"
                        + " alone cannot overlap with anyone");
            }
            if (ttl.isNegative() || ttl.isZero() || chaos.isNegative() || quietLimit.isNegative()) {
                throw new IllegalArgumentException("ttl() must be positive and chaosDuration() and quietLimit() not"
                        + " negative (were " + ttl + ", " + chaos + ", " + quietLimit + ")");
            }
            if (minAcquisitions < 1) {
                throw new IllegalArgumentException("minAcquisitions() must be at least 1 (was " + minAcquisitions
                        + "), or the run could pass without electing anyone");
            }
        }
    }

    /** What a run found: the violations of each property (empty lists when it passed) and what it exercised. */
    record Report(long seed, Map<FuzzChecker.Property, List<String>> violations, String summary) {

        /** The violations of {@code property}. */
        List<String> violationsOf(FuzzChecker.Property property) {
            return Objects.requireNonNull(violations.get(property), "the checker reports on every property");
        }

        /** All violations. */
        List<String> allViolations() {
            return violations.values().stream().flatMap(List::stream).toList();
        }
    }

    private final Settings settings;
    private final Backend store;
    private final Random random;
    private final FuzzJournal journal = new FuzzJournal();
    private final FuzzedElector[] slots;
    private final int[] incarnations;
    private final List<FuzzedElector> retired = new ArrayList<>();
    private final List<FuzzedElector> frozen = new ArrayList<>();
    private final CountDownLatch thaw = new CountDownLatch(1);
    private volatile boolean faultsOn = true;

    FuzzRun(Settings settings, Backend store) {
        this.settings = settings;
        this.store = store;
        this.random = new Random(settings.seed());
        this.slots = new FuzzedElector[settings.electors()];
        this.incarnations = new int[settings.electors()];
    }

    Report run() throws InterruptedException, BackendException {
        long started = System.nanoTime();
        warmUp();
        try {
            for (int slot = 0; slot < slots.length; slot++) {
                slots[slot] = startIncarnation(slot);
            }
            long chaosEnd = System.nanoTime() + settings.chaos().toNanos();
            while (System.nanoTime() - chaosEnd < 0) {
                Thread.sleep(50 + random.nextInt(350));
                injectFault();
            }
            quiet();
        } finally {
            shutdown();
        }
        FuzzJournal.Observations observations = journal.observations();
        Map<FuzzChecker.Property, List<String>> violations =
                FuzzChecker.check(observations, settings.minAcquisitions());
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        return new Report(settings.seed(), violations, summary(observations, took));
    }

    private FuzzedElector startIncarnation(int slot) {
        String name = "fuzz-" + slot + "." + incarnations[slot]++;
        return FuzzedElector.start(name, store, settings.key(), settings.ttl(), random, () -> faultsOn, journal);
    }

    private void injectFault() {
        int slot = pickSlot();
        FuzzedElector target = slots[slot];
        int dice = random.nextInt(100);
        if (dice < 12) {
            journal.restarts.incrementAndGet();
            target.close();
            retired.add(target);
            slots[slot] = startIncarnation(slot);
        } else if (dice < 17) {
            journal.freezes.incrementAndGet();
            target.freezeUntil(thaw);
            frozen.add(target);
            slots[slot] = startIncarnation(slot);
        } else if (dice < 37) {
            if (target.stepDown()) {
                journal.stepDowns.incrementAndGet();
            }
        } else if (dice < 57) {
            journal.loopPauses.incrementAndGet();
            target.pauseLoop(Duration.ofNanos((long) (random.nextDouble() * settings.ttl().toNanos() * 1.2)));
        } else if (dice < 77) {
            target.backendStalls(random.nextBoolean());
        }
    }

    /** Most faults hit the leader, if there is one: that is where a mistake would give two leaders. */
    private int pickSlot() {
        int any = random.nextInt(slots.length);
        if (random.nextInt(100) < 60) {
            for (int i = 0; i < slots.length; i++) {
                if (slots[i].isLeader()) {
                    return i;
                }
            }
        }
        return any;
    }

    /**
     * Faults off; until the run is not vacuous (or the quiet limit passes, which the checker then reports), the
     * leader is asked to step down once per TTL, so that handovers go on without faults.
     */
    private void quiet() throws InterruptedException {
        faultsOn = false;
        for (FuzzedElector elector : slots) {
            elector.backendStalls(false);
        }
        long limit = System.nanoTime() + settings.quietLimit().toNanos();
        while ((journal.acquisitions.get() < settings.minAcquisitions() || journal.termsWithWork() < 2)
                && System.nanoTime() - limit < 0) {
            Thread.sleep(settings.ttl().toMillis());
            for (FuzzedElector elector : slots) {
                if (elector.stepDown()) {
                    journal.stepDowns.incrementAndGet();
                    break;
                }
            }
        }
    }

    /**
     * One read of the run's key before the electors start, without a tight deadline: the first request to a store
     * (class loading, connection set-up, a cold server) may take longer than a request timeout of the run. The key
     * is fresh, so the read must find nothing.
     */
    private void warmUp() throws BackendException {
        if (store.read(settings.key(), WARM_UP_TIMEOUT).isPresent()) {
            journal.failed("the run's fresh key " + settings.key() + " already holds an object in "
                    + store.describe());
        }
    }

    private void shutdown() throws InterruptedException {
        thaw.countDown();
        List<FuzzedElector> all = new ArrayList<>(retired);
        all.addAll(frozen);
        Arrays.stream(slots).filter(Objects::nonNull).forEach(all::add);
        List<CompletableFuture<Void>> closing = all.stream().map(FuzzedElector::close).toList();
        try {
            CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new))
                    .get(DRAIN_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            for (int i = 0; i < all.size(); i++) {
                if (!closing.get(i).isDone()) {
                    journal.failed("the elector " + all.get(i).name() + " did not finish closing within "
                            + DRAIN_LIMIT);
                }
            }
        }
        for (FuzzedElector elector : all) {
            if (!elector.releaseThreads(DRAIN_LIMIT)) {
                journal.failed("backend calls of " + elector.name() + " were still running " + DRAIN_LIMIT
                        + " after it closed");
            }
            if (!elector.stopWorker(DRAIN_LIMIT)) {
                journal.failed("the worker of " + elector.name() + " did not stop within " + DRAIN_LIMIT);
            }
        }
        for (FuzzedElector elector : all) {
            if (!elector.trace().awaitComplete(DRAIN_LIMIT)) {
                journal.failed("the event stream of " + elector.name() + " did not complete within " + DRAIN_LIMIT
                        + " after the elector closed");
            } else if (elector.trace().error() != null) {
                journal.failed("the event stream of " + elector.name() + " failed: " + elector.trace().error());
            }
        }
    }

    private String summary(FuzzJournal.Observations observations, Duration took) {
        long instants = observations.work().stream().mapToLong(FuzzJournal.TermWork::instants).sum();
        return "elector fuzz over " + store.describe() + ": seed " + settings.seed() + ", " + took.toMillis() + " ms, "
                + settings.electors() + " electors (ttl " + settings.ttl().toMillis() + " ms), "
                + (retired.size() + frozen.size() + slots.length) + " incarnations (" + journal.restarts.get()
                + " restarts, " + journal.freezes.get() + " freezes), " + journal.acquisitions.get() + " acquisitions, "
                + observations.work().size() + " terms with work (" + instants + " checked instants), "
                + observations.writes().size() + " store writes; faults: " + journal.backendStalls.get()
                + " backend stalls, " + journal.loopPauses.get() + " loop pauses, " + journal.workerStalls.get()
                + " worker stalls, " + journal.stepDowns.get() + " step-downs; closest handover "
                + FuzzChecker.closestHandover(observations.work());
    }
}
