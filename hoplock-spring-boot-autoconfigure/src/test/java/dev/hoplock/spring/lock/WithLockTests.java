package dev.hoplock.spring.lock;

import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.spring.actuate.HeldLockDescriptor;
import dev.hoplock.spring.actuate.HoplockEndpoint;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockEndpointAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLocksAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockMetricsAutoConfiguration;
import dev.hoplock.spring.leader.MeteredBackend;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import reactor.core.publisher.Mono;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code @WithLock} and the {@link Locks} bean in real application contexts: two contexts on one store (only one
 * runs), throw mode, SpEL names, the token in the context holder, the minimum hold, loss during the call, metrics,
 * the endpoint, and the start-up refusals.
 */
class WithLockTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, HoplockAutoConfiguration.class,
                    HoplockLocksAutoConfiguration.class, HoplockMetricsAutoConfiguration.class,
                    HoplockEndpointAutoConfiguration.class, MetricsAutoConfiguration.class,
                    CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
            .withPropertyValues("hoplock.ttl=60s", "hoplock.renew=20s", "hoplock.poll=20s", "hoplock.owner=me",
                    "management.endpoints.web.exposure.include=hoplock")
            .withBean(Jobs.class);

    private ApplicationContextRunner onFilesystem(Path directory, String owner) {
        return runner.withPropertyValues("hoplock.backend=filesystem", "hoplock.filesystem.directory=" + directory,
                "hoplock.locks.owner=" + owner);
    }

    // ------------------------------------------------------------------ two instances, one store

    @Test
    void ofTwoContextsOnOneStoreOnlyOneRunsAndTheOtherRunsOnceItIsReleased(@TempDir Path store) {
        onFilesystem(store, "a").run(a -> onFilesystem(store, "b").run(b -> {
            Jobs jobsA = a.getBean(Jobs.class);
            Jobs jobsB = b.getBean(Jobs.class);
            CountDownLatch entered = jobsA.holdNextCall();
            CompletableFuture<String> running = CompletableFuture.supplyAsync(() -> call(jobsA));
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

            assertThat(jobsB.report()).as("skipped: the lock is held by a").isNull();
            assertThatThrownBy(jobsB::reportOrThrow).isInstanceOfSatisfying(LockNotTakenException.class, e -> {
                assertThat(e.lockName()).isEqualTo("report");
                assertThat(e.getMessage()).contains("Jobs.reportOrThrow()", "lock 'report'", "held by 'a'");
            });
            assertThat(jobsB.reports()).isEqualTo(0);
            assertThat(b.getBean(Locks.class).held()).isEmpty();
            assertThat(a.getBean(Locks.class).held()).extracting(LockHandle::name).containsExactly("report");

            jobsA.letGo();
            assertThat(running.get(10, TimeUnit.SECONDS)).isEqualTo("ran");
            // Released, not left to expire: the other instance takes it at once.
            assertThat(jobsB.report()).isEqualTo("ran");
            assertThat(jobsB.reports()).isEqualTo(1);
            assertThat(jobsA.reports()).isEqualTo(1);
        }));
    }

    @Test
    void aSecondCallOfTheSameInstanceDoesNotRunWhileTheFirstHoldsTheLock() {
        runner.withPropertyValues("hoplock.backend=memory").run(context -> {
            Jobs jobs = context.getBean(Jobs.class);
            CountDownLatch entered = jobs.holdNextCall();
            CompletableFuture<String> running = CompletableFuture.supplyAsync(() -> call(jobs));
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
            long tokenBefore = context.getBean(Locks.class).held().get(0).token();
            Instant expiryBefore = context.getBean(Locks.class).held().get(0).expiresAt();

            assertThatThrownBy(jobs::reportOrThrow).isInstanceOfSatisfying(LockNotTakenException.class, e -> {
                assertThat(e.answer()).isNull();
                assertThat(e.getMessage()).contains("a call of this instance holds it");
            });
            // The refused call did not extend the running call's lock.
            assertThat(context.getBean(Locks.class).held().get(0).expiresAt()).isEqualTo(expiryBefore);
            assertThat(context.getBean(Locks.class).held().get(0).token()).isEqualTo(tokenBefore);
            jobs.letGo();
            assertThat(running.get(10, TimeUnit.SECONDS)).isEqualTo("ran");
            assertThat(jobs.reports()).isEqualTo(1);
        });
    }

    // ------------------------------------------------------------------ names, tokens, minimum hold, loss

    @Test
    void theNameIsASpelTemplateOverTheArgumentsAndTheTokenIsVisibleInsideOnly() {
        runner.withPropertyValues("hoplock.backend=memory").run(context -> {
            Jobs jobs = context.getBean(Jobs.class);
            LockHandle first = jobs.invoice("42", 7);
            assertThat(first.name()).isEqualTo("invoice-42/7");
            assertThat(first.token()).isPositive();
            assertThat(first.isReleased()).as("released after the call").isTrue();
            LockHandle second = jobs.invoice("42", 7);
            assertThat(second.token()).as("strictly increasing per name").isGreaterThan(first.token());
            assertThat(jobs.invoice("43", 1).name()).isEqualTo("invoice-43/1");
            assertThat(LockContextHolder.current()).as("outside a call").isEmpty();
            assertThat(context.getBean(Locks.class).held()).isEmpty();
        });
    }

    @Test
    void anEvaluatedNameThatIsNoLockNameIsRefusedBeforeTheCall() {
        runner.withPropertyValues("hoplock.backend=memory").run(context -> {
            assertThatThrownBy(() -> context.getBean(Jobs.class).invoice("a b", 1))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("the lock name 'invoice-#{#id}/#{#p1}' gave 'invoice-a b/1', which is not a"
                            + " valid lock name");
        });
    }

    @Test
    void aCallShorterThanTheMinimumHoldLeavesTheLockToExpireAtAcquisitionPlusTheMinimum() {
        runner.withPropertyValues("hoplock.backend=memory", "test.at-least=1500ms").run(context -> {
            Jobs jobs = context.getBean(Jobs.class);
            Locks locks = context.getBean(Locks.class);
            Instant before = Instant.now();
            Long token = jobs.hourly();
            Instant after = Instant.now();
            assertThat(token).isPositive();
            LockHandle kept = locks.held().stream().filter(l -> l.name().equals("hourly")).findFirst().orElseThrow();
            assertThat(kept.token()).isEqualTo(token);
            assertThat(kept.expiresAt()).isBetween(before.plusMillis(1500), after.plusMillis(1500));
            assertThat(jobs.hourly()).as("still held for its minimum: skipped").isNull();
            // Once the minimum has passed, it is taken again (a new acquisition, a new token).
            await().atMost(Duration.ofSeconds(10)).until(() -> jobs.hourly() != null);
            assertThat(locks.held().stream().filter(l -> l.name().equals("hourly")).findFirst().orElseThrow()
                    .token()).isGreaterThan(token);
            assertThat(Instant.now()).isAfter(before.plusMillis(1350));
        });
    }

    @Test
    void aCallThatOutlivesLockAtMostForIsInterruptedAndCountedLost() {
        runner.withPropertyValues("hoplock.backend=memory").run(context -> {
            Jobs jobs = context.getBean(Jobs.class);
            assertThat(jobs.overrun()).isEqualTo("interrupted, held=false");
            assertThat(Thread.currentThread().isInterrupted()).as("the interrupt does not leak").isFalse();
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get(LockCallMeters.LOST).tag("method", "Jobs.overrun").counter().count())
                    .isEqualTo(1);
            assertThat(context.getBean(Locks.class).held()).isEmpty();
        });
    }

    // ------------------------------------------------------------------ metrics and endpoint

    /**
     * Issue 23, first-day fixes 3 and 4: every meter of a @WithLock method reads 0 from the start (the lost counter was
     * missing until the first loss), and the store requests of the named locks are counted in
     * hoplock.backend.requests (only the default election's were), tagged primitive=lock, name=locks.
     */
    @Test
    void everyMeterReadsZeroFromTheStartAndTheLocksStoreRequestsAreCounted() {
        runner.withPropertyValues("hoplock.backend=memory").run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get(LockCallMeters.LOST).tag("method", "Jobs.report").counter().count()).isZero();
            assertThat(registry.get(LockCallMeters.ACQUIRED).tag("method", "Jobs.hourly").counter().count()).isZero();
            assertThat(registry.get(LockCallMeters.REFUSED).tag("method", "Jobs.report").tag("reason", "unavailable")
                    .counter().count()).isZero();
            assertThat(registry.get(LockCallMeters.HELD).tag("method", "Jobs.report").timer().count()).isZero();
            assertThat(registry.get(MeteredBackend.METER).tag("primitive", "lock").tag("name", "locks")
                    .tag("operation", "write").tag("outcome", "written").timer().count()).isZero();

            assertThat(call(context.getBean(Jobs.class))).isEqualTo("ran");
            assertThat(registry.get(MeteredBackend.METER).tag("primitive", "lock").tag("name", "locks")
                    .tag("operation", "write").tag("outcome", "written").timer().count())
                    .as("the acquisition and the release of the run").isGreaterThanOrEqualTo(2);
            assertThat(registry.get(MeteredBackend.METER).tag("primitive", "election").tag("name", "default")
                    .timers()).isNotEmpty();
        });
    }

    @Test
    void metricsCountAcquiredRefusedAndHeldTimeAndTheEndpointListsHeldLocks() {
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.locks.owner=node-1").run(context -> {
            Jobs jobs = context.getBean(Jobs.class);
            HoplockEndpoint endpoint = context.getBean(HoplockEndpoint.class);
            CountDownLatch entered = jobs.holdNextCall();
            CompletableFuture<String> running = CompletableFuture.supplyAsync(() -> call(jobs));
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(jobs.report()).isNull();

            WebEndpointResponse<Object> answer = endpoint.locks("locks", "held");
            assertThat(answer.getStatus()).isEqualTo(200);
            HoplockEndpoint.HeldLocks held = (HoplockEndpoint.HeldLocks) Objects.requireNonNull(answer.getBody(),
                    "a body");
            assertThat(held.owner()).isEqualTo("node-1");
            assertThat(held.locks()).singleElement().satisfies(lock -> {
                assertThat(lock.name()).isEqualTo("report");
                assertThat(lock.token()).isPositive();
                assertThat(lock.timeLeft()).as("the human form, under a minute").matches("\\d+(\\.\\d{1,3})?s");
            });
            assertThat(endpoint.locks("locks", "nope").getStatus()).isEqualTo(404);

            jobs.letGo();
            running.get(10, TimeUnit.SECONDS);
            assertThat(((HoplockEndpoint.HeldLocks) Objects.requireNonNull(endpoint.locks("locks", "held").getBody(),
                    "a body"))
                    .locks()).isEmpty();

            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get(LockCallMeters.ACQUIRED).tag("method", "Jobs.report").counter().count())
                    .isEqualTo(1);
            assertThat(registry.get(LockCallMeters.REFUSED).tag("method", "Jobs.report").tag("reason", "held_here")
                    .counter().count()).isEqualTo(1);
            assertThat(registry.get(LockCallMeters.HELD).tag("method", "Jobs.report").timer().count()).isEqualTo(1);
            assertThat(registry.get(LockCallMeters.LOST).tag("method", "Jobs.report").counter().count()).isZero();
            assertThat(registry.get(LockCallMeters.HELD_NOW).gauge().value()).isZero();
        });
    }

    // ------------------------------------------------------------------ start-up refusals

    @Test
    void annotationsThatCannotWorkFailTheStartNamingEachProblem() {
        runner.withPropertyValues("hoplock.backend=memory").withBean(Unfit.class).run(context -> {
            assertThat(context).hasFailed();
            String message = rootMessage(context.getStartupFailure());
            assertThat(message).contains("@WithLock cannot work on bean",
                    "Unfit.badSpel(): the lock name 'x-#{#' is not a valid SpEL template",
                    "Unfit.badName()", "the lock name 'has space' is invalid",
                    "Unfit.badDuration()", "lockAtMostFor: 'ten minutes' is not a duration",
                    "Unfit.minimumAboveMaximum()", "lockAtLeastFor (2m) is above lockAtMostFor (1m)",
                    "Unfit.zero()", "lockAtMostFor (0s) must be above zero",
                    "Unfit.primitive()", "which has no value for a skipped call",
                    "Unfit.missingParameter(String): the name template 'report-#{#region}' refers to #region, which"
                            + " is not a parameter of the method (its parameters: [kind])",
                    "Unfit.pastTheLastParameter(String): the name template 'report-#{#p1}' refers to #p1, but the"
                            + " method has 1 parameter(s)",
                    "Refer in the name template only to the method's parameters");
            assertThat(message).doesNotContain("Unfit.primitiveThrows()", "Unfit.knownParameters",
                    "Unfit.reactive()");
        });
    }

    @Test
    void theLocksBeanIsOnTheElectionsStoreWithItsOwnSettings(@TempDir Path store) {
        onFilesystem(store, "owner-x").withPropertyValues("hoplock.locks.key-prefix=jobs/").run(context -> {
            Locks locks = context.getBean(Locks.class);
            assertThat(locks.owner()).isEqualTo("owner-x");
            Boolean ran = locks.withLock("nightly", Duration.ofSeconds(30), lock -> lock.isHeld());
            assertThat(ran).isTrue();
            try (var files = java.nio.file.Files.walk(store)) {
                assertThat(files.map(p -> store.relativize(p).toString().replace('\\', '/')))
                        .anyMatch(p -> p.startsWith("jobs+nightly~"));
            }
        });
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.locks.request-timeout=0s")
                .run(context -> assertThat(rootMessage(context.getStartupFailure()))
                        .contains("hoplock.locks.request-timeout"));
    }

    private static String call(Jobs jobs) {
        try {
            return jobs.report();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String rootMessage(@Nullable Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }

    /** One method per mistake. */
    public static class Unfit {

        @WithLock(name = "x-#{#", lockAtMostFor = "1m")
        public void badSpel() {
        }

        @WithLock(name = "has space", lockAtMostFor = "1m")
        public void badName() {
        }

        @WithLock(name = "d", lockAtMostFor = "ten minutes")
        public void badDuration() {
        }

        @WithLock(name = "m", lockAtMostFor = "1m", lockAtLeastFor = "2m")
        public void minimumAboveMaximum() {
        }

        @WithLock(name = "z", lockAtMostFor = "0s")
        public void zero() {
        }

        @WithLock(name = "p", lockAtMostFor = "1m")
        public int primitive() {
            return 1;
        }

        @WithLock(name = "p", lockAtMostFor = "1m", whenHeld = WhenLockHeld.THROW)
        public int primitiveThrows() {
            return 1;
        }

        @WithLock(name = "r", lockAtMostFor = "1m")
        public Mono<String> reactive() {
            return Mono.just("r");
        }

        /** Seen by a new user: SpEL made #region null, so every call ran under the lock "report-". */
        @WithLock(name = "report-#{#region}", lockAtMostFor = "1m")
        public void missingParameter(String kind) {
        }

        @WithLock(name = "report-#{#p1}", lockAtMostFor = "1m")
        public void pastTheLastParameter(String kind) {
        }

        @WithLock(name = "report-#{#kind}-#{#p1}-#{#root.method.name}", lockAtMostFor = "1m")
        public void knownParameters(String kind, int day) {
        }
    }
}
