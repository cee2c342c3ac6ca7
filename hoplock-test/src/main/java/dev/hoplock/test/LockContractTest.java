package dev.hoplock.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hoplock.core.lock.NamedLocks;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockEvent;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.LockLossCause;
import dev.hoplock.core.lock.LockNotAcquiredException;
import dev.hoplock.core.lock.LockNotHeldException;
import dev.hoplock.core.lock.LockScope;
import dev.hoplock.core.lock.ReleaseOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of named locks ({@link NamedLocks}) over one {@link Backend}, as an abstract JUnit 5 test class: extend
 * it once per backend, as with {@link BackendContractTest}.
 *
 * <pre>{@code
 * class MyLockContractTest extends LockContractTest {
 *     @Override
 *     protected Backend backend() {
 *         return new MyBackend(...);          // may return the same instance every time
 *     }
 * }
 * }</pre>
 *
 * <p>What it checks, in real time against the real store: a free lock is taken with token 1 and another owner is told
 * who holds it until when; the same owner extends; release frees the lock at once, never removes another owner's lock,
 * is idempotent, and {@code mustRelease} reports when it had no effect; tokens strictly rise across owners; another
 * owner takes an abandoned lock only after observing it unchanged for a TTL on its own clock (never earlier, measured
 * by {@link System#nanoTime()}); keep-alive keeps a lock across many TTLs against a waiting owner, is refused with a
 * clear error when it cannot work, and when the store stops answering the lock is lost at its deadline, the listener
 * told and the scope's thread interrupted; {@code withLock} releases in all cases; threads of two instances racing for
 * one lock never run at once and see rising tokens; many names share the instance's few threads.
 *
 * <p>Each test uses fresh lock names under a random prefix, so tests can share one store with other users. TTLs are
 * {@link #ttl()} (default 2s); a store with slow requests may need a longer one.
 */
public abstract class LockContractTest {

    private final List<NamedLocks> opened = new ArrayList<>();
    private Backend store;
    private String prefix;

    /** The backend under test. Called once before each test; may return a shared instance. */
    protected abstract Backend backend() throws Exception;

    /** The TTL of the locks the tests take; the tests take a few TTLs each. */
    protected Duration ttl() {
        return Duration.ofSeconds(2);
    }

    /** The longest wait for one store request. */
    protected Duration requestTimeout() {
        return Duration.ofSeconds(10);
    }

    @BeforeEach
    void openStore() throws Exception {
        store = backend();
        prefix = "contract-" + UUID.randomUUID().toString().substring(0, 8) + "/";
    }

    @AfterEach
    void closeLocks() {
        opened.forEach(NamedLocks::close);
        Thread.interrupted();
    }

    /** A named-locks instance of {@code owner} over {@code backend}. */
    protected NamedLocks locks(String owner, Backend backend) {
        NamedLocks locks = NamedLocks.builder(backend).owner(owner + "-" + prefix.substring(9, 17))
                .requestTimeout(requestTimeout()).pollInterval(ttl().dividedBy(10)).build();
        opened.add(locks);
        return locks;
    }

    private NamedLocks locks(String owner) {
        return locks(owner, store);
    }

    private String name(String suffix) {
        return prefix + suffix;
    }

    private static LockHandle acquired(AcquireResult result) {
        assertThat(result).isInstanceOf(AcquireResult.Acquired.class);
        return ((AcquireResult.Acquired) result).handle();
    }

    @Test
    void aFreeLockIsTakenAndAnotherOwnerIsToldWhoHoldsIt() {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        LockHandle lock = acquired(a.tryAcquire(name("free"), ttl()));
        assertThat(lock.token()).isEqualTo(1);
        assertThat(lock.isHeld()).isTrue();
        assertThat(a.held()).containsExactly(lock);
        AcquireResult other = b.tryAcquire(name("free"), ttl());
        assertThat(other).isInstanceOfSatisfying(AcquireResult.HeldByAnother.class, held -> {
            assertThat(held.holder()).isEqualTo(a.owner());
            assertThat(held.expiresAt()).isEqualTo(lock.expiresAt());
            assertThat(held.token()).isEqualTo(1);
        });
    }

    @Test
    void theSameOwnerExtendsItsLock() {
        NamedLocks a = locks("a");
        LockHandle lock = acquired(a.tryAcquire(name("extend"), ttl()));
        var before = lock.expiresAt();
        AcquireResult again = a.tryAcquire(name("extend"), ttl().multipliedBy(2));
        assertThat(again).isEqualTo(new AcquireResult.Acquired(lock, true));
        assertThat(lock.expiresAt()).isAfter(before);
        assertThat(lock.token()).isEqualTo(1);
    }

    @Test
    void releaseFreesTheLockAtOnceAndTokensRiseAcrossOwners() {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        long last = 0;
        for (int round = 0; round < 6; round++) {
            LockHandle lock = acquired((round % 2 == 0 ? a : b).tryAcquire(name("release"), ttl()));
            assertThat(lock.token()).isGreaterThan(last);
            last = lock.token();
            assertThat(lock.release()).isEqualTo(ReleaseOutcome.RELEASED);
            assertThat(lock.isReleased()).isTrue();
        }
    }

    /**
     * Issue 24: a process that wrote the version it last saw (its own released, or ended, record) takes the lock again
     * by one write conditional on that version, without a read first; the minimum hold of {@code @WithLock}
     * ({@code lockAtLeastFor}: the record rewritten to expire soon, then left) costs one write, and so does the run
     * after it. Before issue 24 each acquisition read first (2 requests).
     */
    @Test
    void aLockLastWrittenHereIsTakenAgainByOneWriteWithoutARead() throws Exception {
        Counting counting = new Counting(store);
        NamedLocks a = locks("a", counting);
        String name = name("again");
        acquired(a.tryAcquire(name, ttl())).mustRelease();
        counting.reset();
        LockHandle again = acquired(a.tryAcquire(name, ttl()));
        assertThat(again.token()).isEqualTo(2);
        assertThat(counting.reads.get()).as("reads to take a lock released here").isZero();
        assertThat(counting.writes.get()).isEqualTo(1);

        // The minimum hold: the same acquisition extended for a short TTL (one write), then left to expire.
        Duration minimumHold = a.minimumTtl().multipliedBy(3);
        counting.reset();
        assertThat(a.tryAcquire(name, minimumHold)).isEqualTo(new AcquireResult.Acquired(again, true));
        assertThat(stored(name).owner()).isEqualTo(a.owner());
        NamedLocks b = locks("b");
        assertThat(b.tryAcquire(name, ttl())).as("another instance must observe the kept record")
                .isInstanceOf(AcquireResult.HeldByAnother.class);
        outlive(again);
        LockHandle next = acquired(a.tryAcquire(name, ttl()));
        assertThat(next.token()).isEqualTo(3);
        assertThat(counting.reads.get()).as("reads for the minimum hold and the next run").isZero();
        assertThat(counting.writes.get()).isEqualTo(2);
        next.mustRelease();
    }

    /**
     * Issue 24: a write on the version last seen that the store refuses is an observation: the version is gone, and
     * the read that follows sees the new one for the first time. The new holder is named, and its lock, abandoned, is
     * taken over only after a whole TTL of observation counted from that read, never from anything seen before.
     */
    @Test
    void aRefusedWriteOnTheVersionLastSeenIsAFreshObservation() throws Exception {
        Counting counting = new Counting(store);
        NamedLocks a = locks("a", counting);
        NamedLocks b = locks("b");
        String name = name("refused");
        acquired(a.tryAcquire(name, ttl())).mustRelease();
        LockHandle held = acquired(b.tryAcquire(name, ttl()));
        counting.reset();
        long beforeFirstSighting = System.nanoTime();
        AcquireResult answer = a.tryAcquire(name, ttl());
        assertThat(counting.refusals.get()).as("the write on the released version it last saw").isEqualTo(1);
        assertThat(counting.reads.get()).isEqualTo(1);
        assertThat(answer).isInstanceOfSatisfying(AcquireResult.HeldByAnother.class, other -> {
            assertThat(other.holder()).isEqualTo(b.owner());
            assertThat(other.token()).isEqualTo(2);
            assertThat(other.expiresAt()).isEqualTo(held.expiresAt());
        });
        LockHandle taken = acquired(a.acquire(name, ttl(), ttl().multipliedBy(5)));
        assertThat(System.nanoTime() - beforeFirstSighting).as("observed from the read after the refusal")
                .isGreaterThanOrEqualTo(ttl().toNanos());
        assertThat(held.isHeld()).isFalse();
        assertThat(taken.token()).isEqualTo(3);
    }

    /**
     * Issue 24: a version last seen that was deleted outside hoplock is never written on again and never recreated on
     * old knowledge: the refused write is followed by a read that finds the key absent, and the key is created only
     * after an unbroken TTL of observing that absence (E4 for a deleted record), with a token above the last one.
     */
    @Test
    void aStaleVersionAfterAnOutsideDeleteIsNeverRecreatedOnOldKnowledge() throws Exception {
        Counting counting = new Counting(store);
        NamedLocks a = locks("a", counting);
        String name = name("deleted");
        acquired(a.tryAcquire(name, ttl())).mustRelease();
        String key = "locks/" + name;
        StoredObject released = store.read(key, requestTimeout()).orElseThrow();
        assertThat(store.delete(key, released.handle(), requestTimeout())).isEqualTo(DeleteResult.DELETED);
        counting.reset();
        long beforeAbsenceSeen = System.nanoTime();
        AcquireResult answer = a.tryAcquire(name, ttl());
        assertThat(answer.acquired()).as("an absence seen after a version must be observed first").isFalse();
        assertThat(counting.refusals.get()).isEqualTo(1);
        assertThat(counting.reads.get()).isEqualTo(1);
        assertThat(store.read(key, requestTimeout())).as("nothing created").isEmpty();
        LockHandle taken = acquired(a.acquire(name, ttl(), ttl().multipliedBy(5)));
        assertThat(System.nanoTime() - beforeAbsenceSeen).as("the absence observed for a TTL from the read")
                .isGreaterThanOrEqualTo(ttl().toNanos());
        assertThat(taken.token()).as("tokens keep rising over the delete").isEqualTo(2);
    }

    /**
     * Issue 24 with E5: a write on the version last seen whose answer is lost (it landed) is never answered "acquired";
     * while its outcome is unknown the next attempt reads first, and adopts the write, provably ours.
     */
    @Test
    void aWriteOnTheVersionLastSeenWithoutAnAnswerIsNeverHeldUntilAReadProvesIt() throws Exception {
        Counting counting = new Counting(store);
        NamedLocks a = locks("a", counting);
        NamedLocks b = locks("b");
        String name = name("unknown");
        acquired(a.tryAcquire(name, ttl())).mustRelease();
        counting.loseNextWriteAnswer = true;
        AcquireResult lost = a.tryAcquire(name, ttl());
        assertThat(lost).isInstanceOf(AcquireResult.Unavailable.class);
        assertThat(a.held()).isEmpty();
        assertThat(stored(name).owner()).as("the write landed").isEqualTo(a.owner());
        assertThat(b.tryAcquire(name, ttl())).isInstanceOf(AcquireResult.HeldByAnother.class);
        counting.reset();
        LockHandle adopted = acquired(a.tryAcquire(name, ttl()));
        assertThat(adopted.token()).isEqualTo(2);
        assertThat(counting.reads.get()).as("a read first while a write's outcome is unknown").isEqualTo(1);
        assertThat(counting.writes.get()).isZero();
        adopted.mustRelease();
    }

    private dev.hoplock.core.record.LeaseRecord stored(String name) throws Exception {
        return dev.hoplock.core.record.LeaseRecordCodec.decode(
                store.read("locks/" + name, requestTimeout()).orElseThrow().content());
    }

    /** Lets the local validity of {@code lock} run out (real time passing, not a wait for another thread). */
    private static void outlive(LockHandle lock) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(lock.timeLeft().toNanos() + 1_000_000);
        assertThat(lock.isHeld()).isFalse();
    }

    @Test
    void releaseIsIdempotentAndMustReleaseReportsNoEffect() {
        NamedLocks a = locks("a");
        LockHandle lock = acquired(a.tryAcquire(name("idempotent"), ttl()));
        lock.mustRelease();
        assertThat(lock.release()).isEqualTo(ReleaseOutcome.ALREADY_RELEASED);
        assertThatThrownBy(lock::mustRelease).isInstanceOf(LockNotHeldException.class);
    }

    @Test
    void anAbandonedLockIsTakenOnlyAfterATtlOfLocalObservationAndNeverRemovedByItsOldHolder() {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        LockHandle abandoned = acquired(a.tryAcquire(name("abandoned"), ttl()));
        long firstSighting = System.nanoTime();
        assertThat(b.tryAcquire(name("abandoned"), ttl()).acquired()).isFalse();
        LockHandle taken = acquired(b.acquire(name("abandoned"), ttl(), ttl().multipliedBy(5)));
        assertThat(System.nanoTime() - firstSighting).as("observed for a whole TTL first")
                .isGreaterThanOrEqualTo(ttl().toNanos());
        assertThat(abandoned.isHeld()).isFalse();
        assertThat(taken.token()).isEqualTo(2);
        assertThat(abandoned.release()).isEqualTo(ReleaseOutcome.NOT_HELD);
        assertThat(taken.isHeld()).isTrue();
        assertThat(a.tryAcquire(name("abandoned"), ttl())).isInstanceOf(AcquireResult.HeldByAnother.class);
    }

    @Test
    void keepAliveHoldsTheLockAcrossManyTtlsAgainstAWaitingOwner() {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        LockHandle lock = acquired(a.tryAcquire(name("keep"), ttl()));
        lock.keepAlive(ttl().multipliedBy(2).dividedBy(3));
        lock.keepAlive(ttl().multipliedBy(2).dividedBy(3));
        AcquireResult waited = b.acquire(name("keep"), ttl(), ttl().multipliedBy(3));
        assertThat(waited).isInstanceOf(AcquireResult.HeldByAnother.class);
        assertThat(lock.isHeld()).isTrue();
        assertThat(lock.token()).isEqualTo(1);
        CompletableFuture<AcquireResult> next = b.acquireAsync(name("keep"), ttl(), ttl().multipliedBy(5));
        lock.mustRelease();
        assertThat(next.join()).matches(AcquireResult::acquired);
        assertThatThrownBy(() -> lock.keepAlive(ttl().dividedBy(2))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("acquire it first");
    }

    @Test
    void keepAliveIsRefusedWhenTheMarginIsNotBelowTheTtl() {
        LockHandle lock = acquired(locks("a").tryAcquire(name("margin"), ttl()));
        assertThatThrownBy(() -> lock.keepAlive(ttl())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be below its TTL");
    }

    @Test
    void whenTheStoreStopsAnsweringTheLockIsLostAtItsDeadlineAndItsWorkInterrupted() throws Exception {
        Switch failing = new Switch(store);
        NamedLocks a = locks("a", failing);
        LockHandle lock = acquired(a.tryAcquire(name("lost"), ttl()));
        CompletableFuture<LockEvent.Lost> lost = new CompletableFuture<>();
        lock.onLost(lost::complete);
        lock.keepAlive(ttl().multipliedBy(2).dividedBy(3));
        CountDownLatch inScope = new CountDownLatch(1);
        ExecutorService worker = Executors.newSingleThreadExecutor();
        try {
            Future<Boolean> work = worker.submit(() -> {
                try (LockScope scope = lock.enterScope(true)) {
                    inScope.countDown();
                    new CountDownLatch(1).await();
                    return false;
                } catch (InterruptedException e) {
                    return !lock.isHeld();
                }
            });
            assertThat(inScope.await(10, TimeUnit.SECONDS)).isTrue();
            failing.off = true;
            assertThat(lost.get(ttl().multipliedBy(5).toMillis(), TimeUnit.MILLISECONDS).cause())
                    .isEqualTo(LockLossCause.KEEP_ALIVE_FAILED);
            assertThat(lock.isHeld()).isFalse();
            assertThat(work.get(10, TimeUnit.SECONDS)).as("interrupted once the lock was no longer held").isTrue();
        } finally {
            worker.shutdownNow();
        }
    }

    @Test
    void withLockReleasesInAllCases() {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        assertThatThrownBy(() -> a.withLock(name("with"), ttl(), lock -> {
            throw new IllegalStateException("boom");
        })).hasMessage("boom");
        assertThat(b.withLock(name("with"), ttl(), LockHandle::token)).isEqualTo(2L);
        LockHandle held = acquired(a.tryAcquire(name("with"), ttl()));
        assertThatThrownBy(() -> b.withLock(name("with"), ttl(), lock -> "ran"))
                .isInstanceOf(LockNotAcquiredException.class);
        held.mustRelease();
    }

    @Test
    void racingThreadsOfTwoInstancesNeverHoldTheLockAtOnceAndSeeRisingTokens() throws Exception {
        NamedLocks a = locks("a");
        NamedLocks b = locks("b");
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<Long> tokens = Collections.synchronizedList(new ArrayList<>());
        int threads = 4;
        int rounds = 5;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                NamedLocks mine = t % 2 == 0 ? a : b;
                results.add(pool.submit(() -> {
                    start.await();
                    int ran = 0;
                    for (int r = 0; r < rounds; r++) {
                        try {
                            mine.withLock(name("race"), ttl(), ttl().multipliedBy(10), lock -> {
                                if (inside.incrementAndGet() != 1) {
                                    overlaps.incrementAndGet();
                                }
                                tokens.add(lock.token());
                                inside.decrementAndGet();
                                return lock.token();
                            });
                            ran++;
                        } catch (LockNotAcquiredException e) {
                            // held by this instance's other thread, or not won within the wait: try the next round
                        }
                    }
                    return ran;
                }));
            }
            start.countDown();
            int ran = 0;
            for (Future<Integer> result : results) {
                ran += result.get(120, TimeUnit.SECONDS);
            }
            assertThat(overlaps).hasValue(0);
            assertThat(ran).isPositive();
            assertThat(tokens).hasSize(ran).isSorted().doesNotHaveDuplicates();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void manyNamesShareAFewThreads() {
        NamedLocks a = locks("a");
        List<LockHandle> handles = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            LockHandle lock = acquired(a.tryAcquire(name("many/" + i), ttl().multipliedBy(3)));
            lock.keepAlive(ttl().multipliedBy(2));
            handles.add(lock);
        }
        long lockThreads = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("hoplock-locks")).count();
        assertThat(lockThreads).as("no thread per name").isLessThan(12);
        for (LockHandle lock : handles) {
            assertThat(lock.release()).isEqualTo(ReleaseOutcome.RELEASED);
        }
    }

    /**
     * The store under test, counting reads, writes and refused writes; {@link #loseNextWriteAnswer} lets the next write
     * land and then throws as if its answer was lost (a write of unknown outcome).
     */
    private static final class Counting implements Backend {
        private final Backend delegate;
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger writes = new AtomicInteger();
        final AtomicInteger refusals = new AtomicInteger();
        volatile boolean loseNextWriteAnswer;

        Counting(Backend delegate) {
            this.delegate = delegate;
        }

        void reset() {
            reads.set(0);
            writes.set(0);
            refusals.set(0);
        }

        @Override
        public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
            reads.incrementAndGet();
            return delegate.read(key, timeout);
        }

        @Override
        public WriteResult write(String key, Handle expected, byte[] content, Duration timeout)
                throws BackendException {
            writes.incrementAndGet();
            WriteResult result = delegate.write(key, expected, content, timeout);
            if (!(result instanceof WriteResult.Written)) {
                refusals.incrementAndGet();
            }
            if (loseNextWriteAnswer) {
                loseNextWriteAnswer = false;
                throw new BackendException(BackendException.Kind.TRANSIENT, "the answer was lost (by the test)");
            }
            return result;
        }

        @Override
        public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
            return delegate.delete(key, expected, timeout);
        }

        @Override
        public String describe() {
            return delegate.describe();
        }
    }

    /** The store under test, with a switch that makes every call fail as if the store stopped answering. */
    private static final class Switch implements Backend {
        private final Backend delegate;
        volatile boolean off;

        Switch(Backend delegate) {
            this.delegate = delegate;
        }

        private void check() throws BackendException {
            if (off) {
                throw new BackendException(BackendException.Kind.UNREACHABLE, "switched off by the test");
            }
        }

        @Override
        public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
            check();
            return delegate.read(key, timeout);
        }

        @Override
        public WriteResult write(String key, Handle expected, byte[] content, Duration timeout)
                throws BackendException {
            check();
            return delegate.write(key, expected, content, timeout);
        }

        @Override
        public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
            check();
            return delegate.delete(key, expected, timeout);
        }

        @Override
        public String describe() {
            return delegate.describe();
        }
    }
}
