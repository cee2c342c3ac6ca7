package dev.hoplock.spring.lock;

import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLocksAutoConfiguration;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The fair mode in application contexts (issue 23): {@code hoplock.locks.fair-turn} for every {@code @WithLock} that
 * does not set {@code fairTurn} and for the {@link Locks} bean, the attribute per method ({@code 0s}: the default
 * mode), and the start-up refusals of a negative or unit-less turn.
 */
class WithLockFairTurnTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, HoplockAutoConfiguration.class,
                    HoplockLocksAutoConfiguration.class))
            .withPropertyValues("hoplock.ttl=60s", "hoplock.renew=20s", "hoplock.poll=20s", "hoplock.owner=me");

    private ApplicationContextRunner onFilesystem(Path directory, String owner) {
        return runner.withBean(FairJobs.class).withPropertyValues("hoplock.backend=filesystem",
                "hoplock.filesystem.directory=" + directory, "hoplock.locks.owner=" + owner,
                "hoplock.locks.fair-turn=1h");
    }

    /** Jobs that count their runs. */
    public static class FairJobs {
        final AtomicInteger reports = new AtomicInteger();
        final AtomicInteger unfair = new AtomicInteger();

        @WithLock(name = "report", lockAtMostFor = "1m")
        public @Nullable String report() {
            reports.incrementAndGet();
            return "ran";
        }

        @WithLock(name = "report-or-throw", lockAtMostFor = "1m", whenHeld = WhenLockHeld.THROW)
        public String reportOrThrow() {
            return "ran";
        }

        public int reports() {
            return reports.get();
        }

        public int unfairRuns() {
            return unfair.get();
        }

        @WithLock(name = "unfair", lockAtMostFor = "1m", fairTurn = "0s")
        public @Nullable String unfair() {
            unfair.incrementAndGet();
            return "ran";
        }
    }

    @Test
    void thePropertyMakesEveryWithLockYieldItsTurnToAnotherInstance(@TempDir Path store) {
        onFilesystem(store, "a").run(a -> onFilesystem(store, "b").run(b -> {
            FairJobs jobsA = a.getBean(FairJobs.class);
            FairJobs jobsB = b.getBean(FairJobs.class);
            assertThat(jobsA.report()).isEqualTo("ran");
            assertThat(jobsA.report()).as("a ran less than its turn (1 h) ago: it lets b go first").isNull();
            assertThat(jobsB.report()).as("b takes the released record at once").isEqualTo("ran");
            assertThat(jobsB.report()).as("b's turn ended too").isNull();
            assertThat(jobsA.report()).as("b ran since: a new version, a yields again within its turn").isNull();
            assertThat(jobsA.report()).as("nobody took it since: a runs").isEqualTo("ran");
            assertThat(jobsA.reports()).isEqualTo(2);
            assertThat(jobsB.reports()).isEqualTo(1);

            assertThat(jobsA.reportOrThrow()).isEqualTo("ran");
            assertThatThrownBy(jobsA::reportOrThrow).isInstanceOfSatisfying(LockNotTakenException.class,
                    e -> assertThat(e.getMessage()).contains("lock 'report-or-throw'", "fair turn"));

            assertThat(jobsA.unfair()).isEqualTo("ran");
            assertThat(jobsA.unfair()).as("fairTurn = \"0s\": the default mode").isEqualTo("ran");
            assertThat(jobsA.unfairRuns()).isEqualTo(2);

            Locks locks = a.getBean(Locks.class);
            ((AcquireResult.Acquired) locks.tryAcquire("bean", Duration.ofSeconds(30))).handle().release();
            assertThat(locks.tryAcquire("bean", Duration.ofSeconds(30)))
                    .as("the Locks bean's calls follow hoplock.locks.fair-turn too")
                    .isInstanceOf(AcquireResult.HeldByAnother.class);
        }));
    }

    @Test
    void withoutThePropertyTheAttributeSetsTheTurn() {
        runner.withBean(AttributeOnly.class).withPropertyValues("hoplock.backend=memory").run(context -> {
            AttributeOnly jobs = context.getBean(AttributeOnly.class);
            assertThat(jobs.fair()).isEqualTo("ran");
            assertThat(jobs.fair()).as("within its turn (10 min): lets another instance go first").isNull();
            assertThat(jobs.fair()).as("nobody took it: runs").isEqualTo("ran");
            assertThat(jobs.fair()).as("quiet: nobody took its turn, it yields no more for ten windows")
                    .isEqualTo("ran");
            assertThat(jobs.plain()).isEqualTo("ran");
            assertThat(jobs.plain()).as("no property, no attribute: the default mode").isEqualTo("ran");
        });
    }

    /** The attribute alone. */
    public static class AttributeOnly {
        @WithLock(name = "fair", lockAtMostFor = "1m", fairTurn = "${report.turn:10m}")
        public @Nullable String fair() {
            return "ran";
        }

        @WithLock(name = "plain", lockAtMostFor = "1m")
        public @Nullable String plain() {
            return "ran";
        }
    }

    /** One method per mistake. */
    public static class BadTurns {
        @WithLock(name = "a", lockAtMostFor = "1m", fairTurn = "500")
        public void unitless() {
        }

        @WithLock(name = "b", lockAtMostFor = "1m", fairTurn = "-PT1S")
        public void negative() {
        }

        @WithLock(name = "c", lockAtMostFor = "1m", fairTurn = "soon")
        public void notADuration() {
        }
    }

    @Test
    void aNegativeUnitLessOrUnreadableTurnFailsTheStartNamingIt() {
        runner.withBean(BadTurns.class).withPropertyValues("hoplock.backend=memory").run(context -> {
            assertThat(context).hasFailed();
            assertThat(rootMessage(context.getStartupFailure())).contains(
                    "BadTurns.unitless()", "fairTurn (500) has no unit; write one, for example 500ms or 500s",
                    "BadTurns.negative()", "fairTurn (-PT1S) must be zero (no fair mode) or above zero",
                    "BadTurns.notADuration()", "fairTurn: 'soon' is not a duration");
        });
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.locks.fair-turn=-1s").run(context -> {
            assertThat(context).hasFailed();
            assertThat(rootMessage(context.getStartupFailure())).contains("hoplock.locks.fair-turn",
                    "must be zero (no fair mode) or above zero");
        });
    }

    private static String rootMessage(@Nullable Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }
}
