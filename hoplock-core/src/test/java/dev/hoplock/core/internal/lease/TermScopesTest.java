package dev.hoplock.core.internal.lease;

import dev.hoplock.core.Lease;
import dev.hoplock.core.time.VirtualTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scopes of one term ({@link Term}, {@link OpenScopes}, {@link Scope}): every open scope is told when the term
 * ends and its thread interrupted once if it asked; a closed scope is never told; a scope cannot open after the end;
 * the term is drained when it has ended and its last scope closed. Virtual time: the deadlines never pass by
 * themselves. The scope list takes no lock ({@link OpenScopes}): the races between opening, closing out of order and
 * the end are run on real threads, many times.
 */
class TermScopesTest {

    private final VirtualTime time = new VirtualTime(Instant.parse("2026-01-01T00:00:00Z"));
    private final Term term = new Term(time, new Lease("k", "me", 1, time.wallNow().plusSeconds(30)),
            time.nanoTime() + Duration.ofSeconds(27).toNanos(), time.wallNow().plusSeconds(27).toEpochMilli());

    /** A scope of the term, which has not ended. */
    private Scope opened(boolean interruptOnLoss) {
        return requireNonNull(term.open(interruptOnLoss), "the term has ended");
    }

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void theEndTellsEveryOpenScopeAndInterruptsOnlyThoseThatAsked() {
        Scope asked = opened(true);
        Scope quiet = opened(false);
        Scope closed = opened(true);
        closed.close();
        assertThat(term.openScopes()).isEqualTo(2);

        term.end();

        assertThat(asked.wasLost()).isTrue();
        assertThat(quiet.wasLost()).isTrue();
        assertThat(closed.wasLost()).as("closed before the end: never told").isFalse();
        assertThat(Thread.interrupted()).as("interrupted by the scope that asked").isTrue();
        assertThat(term.drained()).isNotDone();
        asked.close();
        assertThat(term.drained()).isNotDone();
        quiet.close();
        assertThat(term.drained()).isDone();
        assertThat(term.openScopes()).isZero();
    }

    @Test
    void noScopeOpensAfterTheEndAndATermWithoutScopesIsDrainedAtOnce() {
        term.end();
        assertThat(term.open(true)).isNull();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(term.drained()).isDone();
    }

    @Test
    void closingTwiceAndClosingInAnyOrderKeepsTheListRight() {
        Scope first = opened(false);
        Scope second = opened(false);
        Scope third = opened(false);
        second.close();
        second.close();
        assertThat(term.openScopes()).isEqualTo(2);
        first.close();
        third.close();
        assertThat(term.openScopes()).isZero();
        Scope again = opened(true);
        term.end();
        assertThat(again.wasLost()).isTrue();
        assertThat(first.wasLost() || second.wasLost() || third.wasLost()).isFalse();
        again.close();
        assertThat(term.drained()).isDone();
    }

    @Test
    void aScopeIsRefusedOnceTheMonotonicDeadlineHasPassedEvenIfNoThreadNoticed() {
        assertThat(term.open(false)).isNotNull().extracting(Scope::isLeading).isEqualTo(true);
        time.advance(Duration.ofSeconds(27));
        assertThat(term.open(false)).isNull();
    }

    @Test
    void aLossCallbackRunsOnceAfterTheScopeReportsTheLossAndOutsideTheScopeListsLock() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        AtomicReference<Scope> opened = new AtomicReference<>();
        AtomicBoolean sawLoss = new AtomicBoolean();
        AtomicInteger openCountSeenFromAnotherThread = new AtomicInteger(-1);
        Scope scope = requireNonNull(term.open(() -> {
            calls.incrementAndGet();
            Scope self = requireNonNull(opened.get());
            sawLoss.set(self.wasLost() && !self.isLeading());
            // Another thread takes the scope list's lock: it would wait for ever if the callback ran under it.
            try {
                openCountSeenFromAnotherThread.set(
                        CompletableFuture.supplyAsync(term::openScopes).get(10, TimeUnit.SECONDS));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            // The callback may close its own scope (a subscription's doFinally does).
            self.close();
        }));
        opened.set(scope);

        term.end();
        term.end();

        assertThat(calls).as("told once").hasValue(1);
        assertThat(sawLoss).as("the scope reported the loss before its callback ran").isTrue();
        assertThat(openCountSeenFromAnotherThread).as("the list's lock was free during the callback").hasValue(1);
        assertThat(Thread.currentThread().isInterrupted()).as("a callback scope interrupts nobody").isFalse();
        assertThat(term.drained()).as("closed by its callback").isDone();
    }

    @Test
    void aLossCallbackNeverRunsAfterItsScopeClosed() {
        AtomicInteger calls = new AtomicInteger();
        Scope closed = requireNonNull(term.open(calls::incrementAndGet));
        closed.close();

        term.end();

        assertThat(calls).hasValue(0);
        assertThat(term.drained()).isDone();
        assertThat(term.open(calls::incrementAndGet)).as("refused after the end").isNull();
    }

    @Test
    void aCloseOnAnotherThreadWaitsForALossCallbackAlreadyRunning() throws Exception {
        CountDownLatch inCallback = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Scope scope = requireNonNull(term.open(() -> {
            inCallback.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        Thread ender = new Thread(term::end, "ender");
        ender.start();
        assertThat(inCallback.await(10, TimeUnit.SECONDS)).isTrue();
        Thread closer = new Thread(scope::close, "closer");
        closer.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> closer.getState() == Thread.State.BLOCKED);
        assertThat(term.drained()).as("not closed while its callback runs").isNotDone();

        release.countDown();
        closer.join(10_000);
        ender.join(10_000);
        assertThat(term.drained()).isDone();
    }

    @Test
    void aLossCallbackThatThrowsDoesNotKeepTheOthersOrTheEndFromHappening() {
        AtomicInteger calls = new AtomicInteger();
        requireNonNull(term.open(() -> {
            calls.incrementAndGet();
            throw new IllegalStateException("planted");
        }));
        requireNonNull(term.open(() -> {
            calls.incrementAndGet();
            throw new IllegalStateException("planted");
        }));

        term.end();

        assertThat(calls).hasValue(2);
        assertThat(term.ended()).isTrue();
    }

    @Test
    void scopesClosedOutOfOrderAreDroppedOnceTheScopesAboveThemCloseSoALongTermKeepsNoGarbage() {
        Scope outer = opened(false);
        for (int i = 0; i < 1000; i++) {
            Scope first = opened(false);
            Scope second = opened(false);
            first.close(); // beneath an open scope: marked, kept
            second.close(); // on top: dropped, and the closed one beneath with it
        }
        assertThat(term.stackedScopes()).as("only the outer scope is left in the stack").isEqualTo(1);
        Scope inner = opened(false);
        outer.close(); // beneath the inner one: kept, marked closed
        assertThat(term.openScopes()).isEqualTo(1);
        inner.close();
        assertThat(term.stackedScopes()).isZero();
        assertThat(term.openScopes()).isZero();
    }

    /**
     * Review finding (issue 24's lock-free stack): calls that overlap so that the stack never empties (two threads
     * taking turns: each call closes while the other's newer call is open) left every closed scope in the stack, a
     * chain that grew for as long as the term lasted. Each such close now unlinks its scope.
     */
    @Test
    void overlappingCallsThatNeverLetTheStackEmptyLeaveNothingBehind() {
        Scope older = opened(false);
        for (int i = 0; i < 10_000; i++) {
            Scope newer = opened(false);
            older.close(); // beneath the newer one
            older = newer;
        }
        assertThat(term.stackedScopes()).as("only the one open scope").isEqualTo(1);
        assertThat(term.openScopes()).isEqualTo(1);
        Scope a = opened(false);
        Scope b = opened(false);
        Scope c = opened(false);
        b.close(); // between two open scopes
        assertThat(term.stackedScopes()).isEqualTo(3);
        term.end();
        assertThat(c.wasLost()).isTrue();
        assertThat(a.wasLost()).isTrue();
        assertThat(older.wasLost()).isTrue();
        assertThat(b.wasLost()).as("closed before the end: never told").isFalse();
    }

    /**
     * Real threads open, nest and close scopes while the term ends, 200 times over: every scope that opened is told
     * exactly when it was still open at the end (one still open when the end returned was told) (its thread sees the interrupt before its close returns, and never
     * one after: the next call on the thread starts with a clear flag), no scope opens after the end, and the term is
     * drained only once every scope told has begun to close.
     */
    @Test
    void opensClosesAndTheEndRacingOnRealThreadsKeepEveryGuarantee() throws Exception {
        int threads = 4;
        for (int round = 0; round < 200; round++) {
            Term racing = new Term(time, new Lease("k", "me", round + 1, time.wallNow().plusSeconds(30)),
                    time.nanoTime() + Duration.ofSeconds(27).toNanos(), time.wallNow().plusSeconds(27).toEpochMilli());
            Queue<Scope> all = new ConcurrentLinkedQueue<>();
            Queue<Scope> closing = new ConcurrentLinkedQueue<>();
            Queue<String> violations = new ConcurrentLinkedQueue<>();
            AtomicInteger opened = new AtomicInteger();
            AtomicBoolean drainedTooEarly = new AtomicBoolean();
            AtomicBoolean endReturned = new AtomicBoolean();
            CyclicBarrier start = new CyclicBarrier(threads + 1);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                boolean nested = t % 2 == 0;
                Thread worker = new Thread(() -> work(racing, nested, start, opened, endReturned, all, closing,
                        violations),
                        "w" + t);
                workers.add(worker);
                worker.start();
            }
            racing.drained().thenRun(() -> {
                for (Scope scope : all) {
                    if (scope.wasLost() && !closing.contains(scope)) {
                        drainedTooEarly.set(true);
                    }
                }
            });
            start.await(10, TimeUnit.SECONDS);
            while (opened.get() < 50 * round % 400 + 1) {
                Thread.onSpinWait();
            }
            racing.end();
            endReturned.set(true);
            for (Thread worker : workers) {
                worker.join(10_000);
                assertThat(worker.isAlive()).isFalse();
            }
            assertThat(violations).as("round %d", round).isEmpty();
            assertThat(racing.open(false)).isNull();
            assertThat(racing.drained()).as("round %d: every scope closed", round).isDone();
            assertThat(drainedTooEarly).as("round %d: drained before a told scope began to close", round).isFalse();
            assertThat(racing.openScopes()).isZero();
        }
    }

    /** A scope still open after {@code end()} returned was open during the whole end: it must have been told. */
    private static void toldIfOpenAtTheEnd(Scope scope, AtomicBoolean endReturned, Queue<String> violations) {
        if (endReturned.get() && !scope.wasLost()) {
            violations.add("open when the end returned, but not told");
        }
    }

    /** Opens scopes (two deep when {@code nested}) until the term refuses one; records what breaks a guarantee. */
    private static void work(Term racing, boolean nested, CyclicBarrier start, AtomicInteger opened,
            AtomicBoolean endReturned, Queue<Scope> all, Queue<Scope> closing, Queue<String> violations) {
        try {
            start.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            violations.add("start: " + e);
            return;
        }
        while (true) {
            if (Thread.interrupted()) {
                violations.add("interrupted outside any scope (after a close returned)");
            }
            Scope outer = racing.open(true);
            if (outer == null) {
                return;
            }
            all.add(outer);
            opened.incrementAndGet();
            Scope inner = nested ? racing.open(true) : null;
            if (inner != null) {
                all.add(inner);
                toldIfOpenAtTheEnd(inner, endReturned, violations);
                closing.add(inner);
                inner.close();
            }
            toldIfOpenAtTheEnd(outer, endReturned, violations);
            closing.add(outer);
            outer.close();
            boolean interrupted = Thread.interrupted();
            boolean told = outer.wasLost() || (inner != null && inner.wasLost());
            if (interrupted != told) {
                violations.add("interrupted " + interrupted + " but told " + told);
            }
        }
    }
}
