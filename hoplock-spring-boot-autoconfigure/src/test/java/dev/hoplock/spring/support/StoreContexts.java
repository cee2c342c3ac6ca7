package dev.hoplock.spring.support;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.spring.actuate.HoplockEndpoint;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockEndpointAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockHealthAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLocksAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockMetricsAutoConfiguration;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.MeteredBackend;
import dev.hoplock.spring.lock.Jobs;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What every store's application-context test asserts once its store is up: the default election leads on it, a
 * {@code @WithLock} method runs under a lock taken in it, the health contributor shows the election UP and the store's
 * requests are metered, and nothing shown contains the secret. One runner with every hoplock auto-configuration that
 * matters for that, the {@link Jobs} bean and an in-memory meter registry.
 */
public final class StoreContexts {

    private StoreContexts() {
    }

    /** A runner with hoplock's core, locks, metrics, health and endpoint, AOP, a simple meter registry and Jobs. */
    public static ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, HoplockAutoConfiguration.class,
                        HoplockLocksAutoConfiguration.class, HoplockMetricsAutoConfiguration.class,
                        HoplockHealthAutoConfiguration.class, HoplockEndpointAutoConfiguration.class,
                        MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                        SimpleMetricsExportAutoConfiguration.class))
                // A TTL with room for a loaded machine: the elector's first campaign includes the store's check.
                .withPropertyValues("hoplock.ttl=10s", "hoplock.renew=3s", "hoplock.poll=200ms",
                        "hoplock.locks.owner=locks-owner", "management.endpoints.web.exposure.include=hoplock")
                .withBean(Jobs.class);
    }

    /**
     * The default election leads, a {@code @WithLock} method runs (and its lock is released after), the health shows
     * the election UP, the store's requests are metered, and no health, endpoint or status text contains
     * {@code secret}.
     */
    public static void leadsLocksAndIsObserved(AssertableApplicationContext context, String secret) throws Exception {
        assertThat(context).hasNotFailed();
        Elector elector = context.getBean(HoplockElections.class).getDefault();
        await("the default election leads").atMost(Duration.ofSeconds(60)).until(elector::isLeader);

        Jobs jobs = context.getBean(Jobs.class);
        Locks locks = context.getBean(Locks.class);
        CountDownLatch entered = jobs.holdNextCall();
        CompletableFuture<String> running = CompletableFuture.supplyAsync(() -> {
            try {
                return jobs.report();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted";
            }
        });
        assertThat(entered.await(30, TimeUnit.SECONDS)).as("@WithLock took its lock and entered the method").isTrue();
        assertThat(locks.held()).extracting(LockHandle::name).containsExactly("report");
        assertThat(locks.held().get(0).token()).as("a fencing token from the store").isPositive();
        jobs.letGo();
        assertThat(running.get(30, TimeUnit.SECONDS)).isEqualTo("ran");
        assertThat(jobs.reports()).isEqualTo(1);
        assertThat(locks.held()).as("released after the call").isEmpty();

        CompositeHealthContributor health = context.getBean("hoplockHealthContributor",
                CompositeHealthContributor.class);
        Health shown = ((HealthIndicator) health.getContributor("default")).health();
        assertThat(shown.getStatus()).isEqualTo(Status.UP);

        MeterRegistry registry = context.getBean(MeterRegistry.class);
        assertThat(registry.get(MeteredBackend.METER).tag("operation", "write").tag("outcome", "written").timer()
                .count()).as("the store's writes are metered").isPositive();

        assertThat(shown.toString()).doesNotContain(secret);
        assertThat(context.getBean(HoplockEndpoint.class).elections().toString()).doesNotContain(secret);
        assertThat(elector.status().toString()).doesNotContain(secret);
    }
}
