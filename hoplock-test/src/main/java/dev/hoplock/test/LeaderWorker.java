package dev.hoplock.test;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.LeaderScope;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * The leader work of one elector in a fuzz run: whenever the elector leads, it opens a {@link LeaderScope} and checks
 * it about once a millisecond until the term ends, recording each instant at which it provably led.
 *
 * <h2>Why a recorded instant lies inside the term</h2>
 * The instant {@code t} is read after the scope was opened (the term had begun: a scope opens only in a term that
 * exists) and <em>before</em> the scope's {@link LeaderScope#isLeading()} check, which then reads the clock again and
 * finds the term neither ended nor past its deadline. So {@code t} is no later than a moment at which the term was
 * valid, and no earlier than its start. However long the thread is descheduled between the two, the instant stays
 * inside the term; this is what makes the overlap check sound on a loaded machine. The generation comes from the
 * scope, which belongs to exactly one term (never from {@link Elector#isLeader()}, which may already answer for a
 * later term).
 *
 * <p>Just before it closes a scope it records one more instant, at which the scope was provably still open: the
 * elector must not release the lease before that (it waits for leader work to stop, or keeps the lease).
 *
 * <p>While faults are on it also, at random: stalls inside the scope for up to 1.2 TTL (honouring or ignoring the
 * interrupt that the end of the term sends), opens a nested scope, or asks the elector to step down.
 */
final class LeaderWorker implements Runnable {

    private static final Duration CHECK_PACE = Duration.ofMillis(1);
    private static final Duration IDLE_PACE = Duration.ofMillis(5);

    private final String name;
    private final Elector elector;
    private final Random random;
    private final Duration ttl;
    private final BooleanSupplier faultsOn;
    private final FuzzJournal journal;
    private volatile boolean stopped;

    LeaderWorker(String name, Elector elector, Random random, Duration ttl, BooleanSupplier faultsOn,
                 FuzzJournal journal) {
        this.name = name;
        this.elector = elector;
        this.random = random;
        this.ttl = ttl;
        this.faultsOn = faultsOn;
        this.journal = journal;
    }

    /** Asks the worker to stop after its current check (or stall); the caller interrupts the thread to wake it. */
    void stop() {
        stopped = true;
    }

    @Override
    public void run() {
        try {
            while (!stopped) {
                Optional<LeaderScope> opened = elector.enterLeaderScope(true);
                if (opened.isEmpty()) {
                    Pauses.pace(IDLE_PACE);
                    continue;
                }
                LeaderScope scope = opened.get();
                try {
                    workWhileLeading(scope);
                } finally {
                    closeRecorded(scope);
                }
                // The end of the term interrupts this thread (while the scope was open); that interrupt is spent.
                Thread.interrupted();
            }
        } catch (Throwable e) {
            journal.failed("the worker of " + name + " threw " + e);
        }
    }

    private void workWhileLeading(LeaderScope scope) {
        long generation = scope.lease().generation();
        while (!stopped) {
            long instant = System.nanoTime();
            if (!scope.isLeading()) {
                return;
            }
            journal.worked(name, generation, instant);
            if (faultsOn.getAsBoolean()) {
                injectFault();
            }
            Pauses.pace(CHECK_PACE);
        }
    }

    private void injectFault() {
        int dice = random.nextInt(10_000);
        if (dice < 15) {
            journal.workerStalls.incrementAndGet();
            Duration stall = Duration.ofNanos((long) (random.nextDouble() * ttl.toNanos() * 1.2));
            if (random.nextBoolean()) {
                Pauses.sleep(stall);
            } else {
                Pauses.sleepUninterruptibly(stall);
            }
        } else if (dice < 20) {
            if (elector.stepDown()) {
                journal.stepDowns.incrementAndGet();
            }
        } else if (dice < 70) {
            nestedScope();
        }
    }

    /** Work in a scope nested in the current one: the same rule, with the nested scope's own term. */
    private void nestedScope() {
        Optional<LeaderScope> opened = elector.enterLeaderScope(false);
        if (opened.isEmpty()) {
            return;
        }
        LeaderScope nested = opened.get();
        try {
            long instant = System.nanoTime();
            if (nested.isLeading()) {
                journal.worked(name, nested.lease().generation(), instant);
            }
        } finally {
            closeRecorded(nested);
        }
    }

    /** Closes {@code scope}, recording an instant read while it was still open (before the close). */
    private void closeRecorded(LeaderScope scope) {
        journal.scopeOpen(name, scope.lease().generation(), System.nanoTime());
        scope.close();
    }
}
