package dev.hoplock.spring.lock;

import dev.hoplock.core.lock.NamedLocks;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.time.TimeSource;
import dev.hoplock.core.time.VirtualTime;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lockAtLeastFor} in virtual time, with exact bounds (issue 19, defect 9): a call that ends before its minimum
 * hold leaves the lock taken until acquisition + {@code lockAtLeastFor}, on the instance that ran as well as on the
 * others. The minimum hold renews the record for what remains of it, and that renewal's local validity ends a safety
 * margin (10 % of what remains) before the record's expiry; the instance that ran used to run the method again then,
 * about 10 % of the remaining hold early.
 */
class WithLockMinimumHoldTest {

    private static final Duration MS = Duration.ofMillis(1);

    private final VirtualTime time = new VirtualTime(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryBackend store = new InMemoryBackend();
    private final List<NamedLocks> opened = new ArrayList<>();

    /** How long a call of the job takes, in virtual time. */
    private final Duration[] runsFor = {Duration.ofSeconds(5)};

    /** The job: it takes {@code runsFor} of virtual time and returns the token it ran with. */
    public static class Hourly {
        final VirtualTime time;
        final Duration[] runsFor;

        public Hourly(VirtualTime time, Duration[] runsFor) {
            this.time = time;
            this.runsFor = runsFor;
        }

        @WithLock(name = "hourly-export", lockAtMostFor = "10m", lockAtLeastFor = "30s")
        public @Nullable Long hourly() {
            time.advance(runsFor[0]);
            return LockContextHolder.currentToken().orElseThrow();
        }
    }

    @AfterEach
    void closeAll() {
        opened.forEach(NamedLocks::close);
    }

    private Hourly instance(String owner, TimeSource clock) {
        NamedLocks locks = NamedLocks.builder(store).owner(owner).timeSource(clock).scheduler(time)
                .ioExecutor(Runnable::run).eventExecutor(Runnable::run).build();
        opened.add(locks);
        WithLockInterceptor interceptor = new WithLockInterceptor(new WithLockAttributeSource(WhenLockHeld.SKIP, null),
                () -> locks, List::of, clock);
        ProxyFactory factory = new ProxyFactory(new Hourly(time, runsFor));
        factory.setProxyTargetClass(true);
        factory.addAdvice(interceptor);
        return (Hourly) factory.getProxy();
    }

    @Test
    void theInstanceThatRanSkipsUntilExactlyAcquisitionPlusLockAtLeastFor() throws Exception {
        Hourly a = instance("a", time);
        Hourly b = instance("b", time);
        assertThat(a.hourly()).isEqualTo(1L); // acquired at 0 s, ran until 5 s: the record now expires at 30 s
        assertThat(store.read("locks/hourly-export", Duration.ofSeconds(1))).isPresent();

        time.advance(Duration.ofMillis(27_500).minus(Duration.ofSeconds(5))); // 27.5 s: 30 s - 10 % of the 25 s left
        assertThat(a.hourly()).as("27.5 s: within lockAtLeastFor (30 s) on the instance that ran").isNull();
        assertThat(b.hourly()).as("27.5 s: within lockAtLeastFor on another instance").isNull();
        time.advance(Duration.ofMillis(2_500).minus(MS)); // 30 s - 1 ms
        assertThat(a.hourly()).as("30 s - 1 ms: still within lockAtLeastFor").isNull();
        assertThat(b.hourly()).isNull();
        time.advance(MS); // 30 s: acquisition + lockAtLeastFor
        assertThat(a.hourly()).as("30 s: the minimum hold has ended; a new acquisition").isEqualTo(2L);
        assertThat(b.hourly()).as("b observes a's newest record for its own lockAtMostFor first").isNull();
    }

    /**
     * A call that ends less than the locks' shortest TTL (56 ms here) before its minimum hold ends: the record is
     * renewed for that shortest TTL instead (it used to be renewed for what remained, a TTL now refused), so the hold
     * lasts until the renewal's local validity ends: 29.99 s + 56 ms - 5.6 ms, by the wall deadline in whole
     * milliseconds 30.040 s.
     */
    @Test
    void aCallEndingJustBeforeTheMinimumKeepsTheLockForTheShortestTtlTheLocksAccept() {
        Hourly a = instance("a", time);
        runsFor[0] = Duration.ofMillis(29_990);
        assertThat(a.hourly()).isEqualTo(1L);
        time.advance(Duration.ofMillis(10)); // 30 s
        assertThat(a.hourly()).as("30 s: kept for 56 ms from 29.99 s, valid here until 30.040 s").isNull();
        time.advance(Duration.ofNanos(40_000_000 - 1));
        assertThat(a.hourly()).isNull();
        time.advance(Duration.ofNanos(1));
        runsFor[0] = Duration.ZERO;
        assertThat(a.hourly()).isEqualTo(2L);
    }

    @Test
    void aCallLongerThanTheMinimumReleasesTheLockAtItsEnd() {
        Hourly a = instance("a", time);
        Hourly b = instance("b", time);
        runsFor[0] = Duration.ofSeconds(40);
        assertThat(a.hourly()).isEqualTo(1L);
        assertThat(b.hourly()).as("released at once after a call past its minimum").isEqualTo(2L);
    }
}
