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
