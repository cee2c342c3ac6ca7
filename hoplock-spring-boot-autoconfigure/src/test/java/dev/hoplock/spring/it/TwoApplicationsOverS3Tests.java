package dev.hoplock.spring.it;

import dev.hoplock.core.election.Elector;
import dev.hoplock.s3.S3Backend;
import dev.hoplock.s3.server.S3MockExtension;
import dev.hoplock.s3.server.S3MockServer;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.it.DemoJobApplication.Execution;
import dev.hoplock.spring.leader.HoplockMeterBinder;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two whole applications electing over S3 (Adobe S3Mock, a separate process, through hoplock-s3's test harness):
 * the conditional-write probe passes before campaigning, exactly one runs the job, metrics and health tell which,
 * and a stopped leader hands over through the release.
 */
@ExtendWith(S3MockExtension.class)
class TwoApplicationsOverS3Tests {

    private final List<ConfigurableApplicationContext> started = new ArrayList<>();
    private final String prefix = "spring-" + UUID.randomUUID().toString().substring(0, 8) + "/";

    @BeforeEach
    void reset() {
        DemoJobApplication.reset();
    }

    @AfterEach
    void closeAll() {
        started.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void twoApplicationsShareOneS3Lease(S3MockServer server) throws Exception {
        ConfigurableApplicationContext a = start(server, "s3-a");
        assertThat(a.getBean(S3Backend.class).describe()).contains("s3://" + server.bucket() + "/" + prefix);
        Elector electorA = elector(a);
        await().atMost(Duration.ofSeconds(15)).until(electorA::isLeader);
        assertThat(electorA.status().verification()).isEqualTo(dev.hoplock.core.election.StoreVerification.VERIFIED);
        assertThat(electorA.status().capabilities()).get().extracting(c -> c.summary()).asString()
                .startsWith("create VERIFIED, swap VERIFIED");
        ConfigurableApplicationContext b = start(server, "s3-b");
        Elector electorB = elector(b);
        await().atMost(Duration.ofSeconds(15)).until(() -> electorB.holder().isPresent());

        await().atMost(Duration.ofSeconds(10)).until(() -> DemoJobApplication.of("s3-a").size() >= 5);
        assertThat(DemoJobApplication.of("s3-b")).isEmpty();
        assertThat(gauge(a)).isEqualTo(1.0);
        assertThat(gauge(b)).isEqualTo(0.0);
        assertThat(health(a).getStatus()).isEqualTo(Status.UP);
        assertThat(health(a).getDetails()).containsEntry("role", "leader")
                .hasEntrySatisfying("backend", backend -> assertThat(backend.toString()).startsWith("s3://"));
        assertThat(health(b).getDetails()).containsEntry("role", "follower").containsEntry("holder", "s3-a");

        long generationA = electorA.currentLease().orElseThrow().generation();
        Handover handover = Handover.watch(electorA, electorB);
        a.close();
        handover.assertReleasedAndTakenOverBeforeExpiry();
        assertThat(electorB.currentLease().orElseThrow().generation()).isGreaterThan(generationA);
        await().atMost(Duration.ofSeconds(10)).until(() -> DemoJobApplication.of("s3-b").size() >= 3);
        assertThat(gauge(b)).isEqualTo(1.0);

        List<Execution> all = DemoJobApplication.EXECUTIONS.stream()
                .sorted(Comparator.comparingLong(Execution::startNanos)).toList();
        for (int i = 1; i < all.size(); i++) {
            if (!all.get(i - 1).owner().equals(all.get(i).owner())) {
                assertThat(all.get(i).startNanos()).isGreaterThanOrEqualTo(all.get(i - 1).endNanos());
            }
        }
    }

    private ConfigurableApplicationContext start(S3MockServer server, String owner) {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(DemoJobApplication.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off",
                        "hoplock.backend=s3", "hoplock.s3.bucket=" + server.bucket(), "hoplock.s3.prefix=" + prefix,
                        "hoplock.s3.endpoint=" + server.endpoint(), "hoplock.s3.path-style=true",
                        "hoplock.s3.region=us-east-1", "hoplock.s3.access-key=test-access-key",
                        "hoplock.s3.secret-key=test-secret-key", "hoplock.s3.api-call-timeout=2s",
                        "hoplock.owner=" + owner, "hoplock.ttl=3s", "hoplock.renew=1s", "hoplock.poll=200ms",
                        "hoplock.release-timeout=2s",
                        "logging.level.root=WARN", "logging.level.dev.hoplock=INFO")
                .run();
        started.add(context);
        return context;
    }

    private static Elector elector(ConfigurableApplicationContext context) {
        return context.getBean(HoplockElections.class).getDefault();
    }

    private static double gauge(ConfigurableApplicationContext context) {
        return context.getBean(MeterRegistry.class).get(HoplockMeterBinder.LEADER).tag("election", "default")
                .gauge().value();
    }

    private static Health health(ConfigurableApplicationContext context) {
        CompositeHealthContributor composite = context.getBean("hoplockHealthContributor",
                CompositeHealthContributor.class);
        return ((HealthIndicator) composite.getContributor("default")).health();
    }
}
