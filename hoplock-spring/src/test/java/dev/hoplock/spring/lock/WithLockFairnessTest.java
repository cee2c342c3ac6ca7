package dev.hoplock.spring.lock;

import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.lock.NamedLocks;
import dev.hoplock.core.time.VirtualTime;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23, as a user saw it: three instances of an application run a {@code @Scheduled} job every 200 ms under
 * {@code @WithLock(name = "report-daily", ...)}, started at different moments (their calls fall 0, 40 and 110 ms into
 * each period), for 20 s of virtual time, with the real interceptor and {@link NamedLocks} over one store. The counts
 * of the default mode are the promise of docs/named-locks.md, "Fairness" (none), measured; those of the fair mode
 * ({@code fairTurn}, L7) are its turns ({@code mvn -o test -pl hoplock-spring -Dtest=WithLockFairnessTest}).
 */
class WithLockFairnessTest {

    private static final Duration PERIOD = Duration.ofMillis(200);
    private static final Duration[] PHASES = {Duration.ZERO, Duration.ofMillis(40), Duration.ofMillis(110)};
    private static final Duration WINDOW = Duration.ofSeconds(20);

    private final VirtualTime time = new VirtualTime(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryBackend store = new InMemoryBackend();
    private final List<NamedLocks> opened = new ArrayList<>();
    /** Which instances are inside the job now. */
    private final boolean[] working = new boolean[PHASES.length];

    /** The job in four settings; each takes {@code runsFor} of virtual time and checks it runs alone. */
    public static class Report {
        final VirtualTime time;
        final boolean[] working;
        final int me;
        Duration runsFor = Duration.ZERO;

        public Report(VirtualTime time, boolean[] working, int me) {
            this.time = time;
            this.working = working;
            this.me = me;
        }

        @WithLock(name = "report-daily", lockAtMostFor = "10s")
        public @Nullable Long plain() {
            return run();
        }

        @WithLock(name = "report-daily", lockAtMostFor = "10s", lockAtLeastFor = "150ms")
        public @Nullable Long withMinimumHold() {
            return run();
        }

        @WithLock(name = "report-daily", lockAtMostFor = "10s", fairTurn = "400ms")
        public @Nullable Long plainFair() {
            return run();
        }

        @WithLock(name = "report-daily", lockAtMostFor = "10s", lockAtLeastFor = "150ms", fairTurn = "400ms")
        public @Nullable Long withMinimumHoldFair() {
            return run();
        }

        private Long run() {
            for (int other = 0; other < working.length; other++) {
                assertThat(working[other]).as("instance %d works while %d starts", other, me).isFalse();
            }
            working[me] = true;
            time.advance(runsFor);
            working[me] = false;
            return LockContextHolder.currentToken().orElseThrow();
        }
    }

    @AfterEach
    void closeAll() {
        opened.forEach(NamedLocks::close);
    }

    private Report instance(int me, Duration runsFor) {
        NamedLocks locks = NamedLocks.builder(store).owner("instance-" + me).timeSource(time).scheduler(time)
                .ioExecutor(Runnable::run).eventExecutor(Runnable::run).build();
        opened.add(locks);
        WithLockInterceptor interceptor = new WithLockInterceptor(new WithLockAttributeSource(WhenLockHeld.SKIP, null),
                () -> locks, List::of, time);
        Report report = new Report(time, working, me);
        report.runsFor = runsFor;
        ProxyFactory factory = new ProxyFactory(report);
        factory.setProxyTargetClass(true);
        factory.addAdvice(interceptor);
        return (Report) factory.getProxy();
    }

    /**
     * Calls {@code job} on each instance every {@link #PERIOD} at its phase for {@link #WINDOW} (a firing while the
     * same instance still runs is skipped, as a single-threaded scheduler does) and counts the calls that ran.
     */
    private int[] runs(Duration runsFor, Function<Report, @Nullable Long> job) {
        int n = PHASES.length;
        int[] ran = new int[n];
        long[] lastToken = {0};
        long end = time.nanoTime() + WINDOW.toNanos();
        for (int i = 0; i < n; i++) {
            Report report = instance(i, runsFor);
            int me = i;
            Runnable[] call = new Runnable[1];
            call[0] = () -> {
                if (time.nanoTime() >= end) {
                    return;
                }
                time.schedule(call[0], PERIOD);
                if (working[me]) {
                    return;
                }
                Long token = job.apply(report);
                if (token != null) {
                    assertThat(token).as("tokens rise").isGreaterThan(lastToken[0]);
                    lastToken[0] = token;
                    ran[me]++;
                }
            };
            time.schedule(call[0], PHASES[i]);
        }
        time.advance(WINDOW.plus(PERIOD));
        System.out.println("runs of 100 calls per instance: " + Arrays.toString(ran));
        return ran;
    }

    @Test
    void withAMinimumHoldTheInstanceThatRanRunsEveryTime() {
        // The job takes 30 ms; lockAtLeastFor 150 ms keeps the record, and its owner takes it back at its next call.
        assertThat(runs(Duration.ofMillis(30), Report::withMinimumHold)).containsExactly(100, 0, 0);
    }

    @Test
    void withoutAMinimumHoldTheFirstCallerOfEachPeriodRunsEveryTime() {
        // The job takes 150 ms, longer than the gaps between the phases.
        assertThat(runs(Duration.ofMillis(150), Report::plain)).containsExactly(100, 0, 0);
    }

    @Test
    void theFairModeTakesTurnsWithAMinimumHold() {
        assertThat(runs(Duration.ofMillis(30), Report::withMinimumHoldFair)).containsExactly(25, 25, 25);
    }

    @Test
    void theFairModeTakesTurnsWithoutAMinimumHold() {
        assertThat(runs(Duration.ofMillis(150), Report::plainFair)).containsExactly(25, 25, 25);
    }
}
