package dev.hoplock.spring.scheduling;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLeaderOnlyAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockMetricsAutoConfiguration;
import dev.hoplock.spring.leader.SkippedCallCounter;
import dev.hoplock.spring.support.CountingBackend;
import dev.hoplock.spring.support.Records;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @Scheduled @LeaderOnly} with fixedRate, fixedDelay and cron, and {@code hoplock.scheduling.leader-only-all}:
 * the leader runs the jobs; a follower skips every run without any store request.
 */
class LeaderOnlySchedulingTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, TaskSchedulingAutoConfiguration.class,
                    HoplockAutoConfiguration.class, HoplockLeaderOnlyAutoConfiguration.class,
                    HoplockMetricsAutoConfiguration.class))
            .withPropertyValues("hoplock.ttl=60s", "hoplock.renew=20s", "hoplock.poll=20s")
            .withUserConfiguration(JobsConfig.class);

    @Test
    void theLeaderRunsFixedRateFixedDelayAndCronJobs() {
        runner.withUserConfiguration(Store.class).run(context -> {
            assertThat(context).hasNotFailed();
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            await().atMost(Duration.ofSeconds(5)).until(elector::isLeader);
            Jobs jobs = context.getBean(Jobs.class);
            await().atMost(Duration.ofSeconds(5)).until(() -> jobs.rateRuns() >= 3 && jobs.delayRuns() >= 3
                    && jobs.cronRuns() >= 1 && jobs.packagePrivateRuns() >= 3);
            assertThat(jobs.plainRuns()).isPositive();
        });
    }

    @Test
    void aFollowerSkipsEveryKindOfScheduleWithoutStoreRequests() {
        runner.withUserConfiguration(HeldStore.class).run(context -> {
            assertThat(context).hasNotFailed();
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            await().atMost(Duration.ofSeconds(5)).until(() -> elector.holder().isPresent());
            CountingBackend backend = context.getBean(CountingBackend.class);
            long requestsBefore = backend.requests();
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            await().atMost(Duration.ofSeconds(5)).until(() -> skipped(registry, "rate") >= 5
                    && skipped(registry, "delay") >= 5 && skipped(registry, "cron") >= 1
                    && skipped(registry, "packagePrivate") >= 5);
            Jobs jobs = context.getBean(Jobs.class);
            assertThat(jobs.rateRuns()).isZero();
            assertThat(jobs.delayRuns()).isZero();
            assertThat(jobs.cronRuns()).isZero();
            assertThat(jobs.packagePrivateRuns()).as("a package-private job is gated too").isZero();
            assertThat(jobs.plainRuns()).as("an unannotated job runs everywhere by default").isPositive();
            assertThat(backend.requests()).as("store requests while skipping").isEqualTo(requestsBefore);
        });
    }

    @Test
    void leaderOnlyAllGatesUnannotatedScheduledMethods() {
        runner.withUserConfiguration(HeldStore.class).withPropertyValues("hoplock.scheduling.leader-only-all=true")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    await().atMost(Duration.ofSeconds(5)).until(() -> skipped(registry, "plain") >= 5);
                    assertThat(context.getBean(Jobs.class).plainRuns()).isZero();
                    assertThat(context.getBean(Jobs.class).unscheduled()).as("not scheduled: not gated").isEqualTo(1);
                });
        runner.withUserConfiguration(Store.class).withPropertyValues("hoplock.scheduling.leader-only-all=true")
                .run(context -> {
                    Jobs jobs = context.getBean(Jobs.class);
                    await().atMost(Duration.ofSeconds(5)).until(() -> jobs.plainRuns() >= 3);
                });
    }

    private static double skipped(MeterRegistry registry, String method) {
        Counter counter = registry.find(SkippedCallCounter.METER).tag("method", "Jobs." + method).counter();
        return counter == null ? 0 : counter.count();
    }

    /** The jobs; counters behind public methods, because fields of a proxy are not the target's. */
    public static class Jobs {
        private final AtomicInteger rate = new AtomicInteger();
        private final AtomicInteger delay = new AtomicInteger();
        private final AtomicInteger cron = new AtomicInteger();
        private final AtomicInteger plain = new AtomicInteger();
        private final AtomicInteger unscheduled = new AtomicInteger();
        private final AtomicInteger packagePrivate = new AtomicInteger();

        @Scheduled(fixedRate = 20)
        @LeaderOnly
        public void rate() {
            rate.incrementAndGet();
        }

        @Scheduled(fixedDelay = 20)
        @LeaderOnly
        public void delay() {
            delay.incrementAndGet();
        }

        @Scheduled(cron = "* * * * * *")
        @LeaderOnly
        public void cron() {
            cron.incrementAndGet();
        }

        @Scheduled(fixedRate = 20)
        public void plain() {
            plain.incrementAndGet();
        }

        @Scheduled(fixedRate = 20)
        @LeaderOnly
        void packagePrivate() {
            packagePrivate.incrementAndGet();
        }

        public int packagePrivateRuns() {
            return packagePrivate.get();
        }

        public int unscheduled() {
            return unscheduled.incrementAndGet();
        }

        public int rateRuns() {
            return rate.get();
        }

        public int delayRuns() {
            return delay.get();
        }

        public int cronRuns() {
            return cron.get();
        }

        public int plainRuns() {
            return plain.get();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    static class JobsConfig {
        @Bean
        Jobs jobs() {
            return new Jobs();
        }

        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Store {
        @Bean
        CountingBackend backend() {
            return new CountingBackend(new InMemoryBackend());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class HeldStore {
        @Bean
        CountingBackend backend() {
            InMemoryBackend memory = new InMemoryBackend();
            Records.plantHeld(memory, "default", "someone-else", 3, Instant.now().plusSeconds(60));
            return new CountingBackend(memory);
        }
    }
}
