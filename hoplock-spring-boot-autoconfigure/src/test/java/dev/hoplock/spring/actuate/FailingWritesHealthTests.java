package dev.hoplock.spring.actuate;

import dev.hoplock.spring.autoconfigure.HoplockHealthAutoConfiguration;
import dev.hoplock.core.election.Elector;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.support.ReadOnlyBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A store that answers reads but refuses every write is not healthy: nobody can lead. Health says DOWN with the
 * reason (whatever hoplock.health.down-on-store-outage says: it is no outage), the failure is logged once, not once
 * per poll, and health is UP again once writes succeed.
 */
@ExtendWith(OutputCaptureExtension.class)
class FailingWritesHealthTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class,
                    HoplockHealthAutoConfiguration.class))
            .withUserConfiguration(ReadOnlyStore.class)
            .withPropertyValues("hoplock.ttl=1s", "hoplock.renew=300ms", "hoplock.poll=50ms");

    @Test
    void writesThatKeepFailingAreDownWithTheReasonAndLoggedOnce(CapturedOutput output) {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            await().atMost(Duration.ofSeconds(5)).until(() -> health(context).getStatus().equals(Status.DOWN));
            Health health = health(context);
            assertThat(health.getDetails()).containsEntry("role", "follower").containsEntry("holder", "none")
                    .containsEntry("lastWriteError", "create default failed: permission denied")
                    .containsKeys("failingWrites", "sinceStoreAnswered");
            assertThat((Integer) health.getDetails().get("failingWrites")).isGreaterThan(5);
            assertThat(Objects.requireNonNull(health.getDetails().get("reason"), "a reason").toString())
                    .contains("answers reads but every write has failed for", "longer than the TTL (1s)",
                            "no instance can lead", "permission denied");
            assertThat(output.getOut().lines().filter(line -> line.contains("a write to read-only test store"))
                    .count()).as("logged once, not once per poll").isEqualTo(1);

            context.getBean(ReadOnlyBackend.class).setReadOnly(false);
            // The first write that succeeds ends the streak (health is UP from then on) and logs so, both before the
            // elector has even seen the answer and taken the role: UP alone may come a moment before the leader.
            // Once the elector leads, that write has returned, so the streak has ended and the line is logged.
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            await().atMost(Duration.ofSeconds(5)).until(() -> elector.isLeader()
                    && health(context).getStatus().equals(Status.UP));
            assertThat(health(context).getDetails()).doesNotContainKeys("failingWrites", "lastWriteError");
            assertThat(output.getOut()).contains("get answers again");
        });
    }

    @Test
    void failingWritesAreDownEvenWhenOutagesAreNot() {
        runner.withPropertyValues("hoplock.health.down-on-store-outage=false").run(context ->
                await().atMost(Duration.ofSeconds(5)).until(() -> health(context).getStatus().equals(Status.DOWN)));
    }

    static Health health(ApplicationContext context) {
        CompositeHealthContributor composite = context.getBean("hoplockHealthContributor",
                CompositeHealthContributor.class);
        HealthIndicator indicator = (HealthIndicator) Objects.requireNonNull(composite.getContributor("default"),
                "a contributor per election");
        return Objects.requireNonNull(indicator.health(), "an indicator answers");
    }

    @Configuration(proxyBeanMethods = false)
    static class ReadOnlyStore {
        @Bean
        ReadOnlyBackend backend() {
            return new ReadOnlyBackend();
        }
    }
}
