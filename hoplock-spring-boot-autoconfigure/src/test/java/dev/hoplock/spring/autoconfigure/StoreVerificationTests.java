package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.Elector;
import dev.hoplock.core.Role;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.spring.BackendVerifier;
import dev.hoplock.spring.HoplockElections;
import dev.hoplock.spring.autoconfigure.HoplockHealthAutoConfiguration;
import dev.hoplock.spring.support.CountingBackend;
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
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The store check before campaigning ({@link BackendVerifier}, the S3 conditional-write probe in production): a
 * refused store is never campaigned on and reports DOWN; a store that cannot be asked yet is asked again.
 */
@ExtendWith(OutputCaptureExtension.class)
class StoreVerificationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class,
                    HoplockHealthAutoConfiguration.class))
            .withPropertyValues("hoplock.ttl=1s", "hoplock.renew=300ms", "hoplock.poll=50ms");

    @Test
    void aRefusedStoreIsNeverCampaignedOnAndHealthSaysWhy() {
        runner.withUserConfiguration(RefusingVerifier.class).run(context -> {
            assertThat(context).hasNotFailed();
            StoreVerification verification = context.getBean(StoreVerification.class);
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> verification.snapshot().state() == StoreVerification.State.REFUSED);
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            assertThat(elector.status().role()).isEqualTo(Role.NEW);
            assertThat(context.getBean(CountingBackend.class).requests()).as("no election request").isZero();
            Health health = health(context);
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails().get("reason").toString())
                    .contains("refused the conditional-write probe", "accepted a stale If-Match");
        });
    }

    @Test
    void aStoreThatCannotBeAskedYetIsAskedAgainThenCampaignedOn() {
        runner.withUserConfiguration(FlakyVerifier.class).run(context -> {
            assertThat(context).hasNotFailed();
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            await().atMost(Duration.ofSeconds(5)).until(elector::isLeader);
            assertThat(context.getBean(FlakyVerifier.class).attempts).hasValue(3);
            assertThat(context.getBean(StoreVerification.class).snapshot().state())
                    .isEqualTo(StoreVerification.State.PASSED);
            assertThat(health(context).getStatus()).isEqualTo(Status.UP);
        });
    }

    @Test
    void aFailingCheckIsLoggedOncePerKindOfFailureInHumanDurations(CapturedOutput output) {
        runner.withUserConfiguration(ChangingVerifier.class).run(context -> {
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            await().atMost(Duration.ofSeconds(10)).until(elector::isLeader);
            assertThat(context.getBean(ChangingVerifier.class).attempts).hasValue(9);
            await().atMost(Duration.ofSeconds(5)).until(() -> output.getOut().contains("answered after 8 failed"));
            String log = output.getOut();
            assertThat(log.lines().filter(line -> line.contains("cannot check")).toList())
                    .as("one line for the 5 unreachable attempts, one for the 3 access-denied ones")
                    .hasSize(2)
                    .allSatisfy(line -> assertThat(line).contains("retrying every 50ms").doesNotContain("PT0"));
            assertThat(log).contains("connection refused (attempt 1)").doesNotContain("(attempt 2)")
                    .contains("access denied (attempt 6)").doesNotContain("(attempt 7)");
        });
    }

    @Test
    void aStoreThatCannotBeAskedForATtlIsUnknownByDefault() {
        runner.withUserConfiguration(UnreachableVerifier.class).run(context -> {
            await().atMost(Duration.ofSeconds(5)).until(() -> health(context).getDetails().get("reason").toString()
                    .contains("could not be checked"));
            assertThat(health(context).getStatus()).isEqualTo(Status.UNKNOWN);
        });
    }

    @Test
    void aStoreThatCannotBeAskedForATtlIsDownWhenOutagesCountAsDown() {
        runner.withUserConfiguration(UnreachableVerifier.class)
                .withPropertyValues("hoplock.health.down-on-store-outage=true").run(context -> {
            await().atMost(Duration.ofSeconds(5)).until(() -> health(context).getStatus().equals(Status.DOWN));
            assertThat(health(context).getDetails().get("reason").toString())
                    .contains("could not be checked", "connection refused");
            assertThat(context.getBean(HoplockElections.class).getDefault().status().role()).isEqualTo(Role.NEW);
        });
    }

    @Test
    void aVerifierThatDoesNotApplyIsSkipped() {
        runner.withUserConfiguration(NotApplicableVerifier.class).run(context -> {
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            await().atMost(Duration.ofSeconds(5)).until(elector::isLeader);
            assertThat(context.getBean(StoreVerification.class).snapshot().state())
                    .isEqualTo(StoreVerification.State.NOT_REQUIRED);
        });
    }

    private static Health health(org.springframework.context.ApplicationContext context) {
        CompositeHealthContributor composite = context.getBean("hoplockHealthContributor",
                CompositeHealthContributor.class);
        return ((HealthIndicator) composite.getContributor("default")).health();
    }

    @Configuration(proxyBeanMethods = false)
    static class RefusingVerifier {
        @Bean
        CountingBackend backend() {
            return new CountingBackend(new InMemoryBackend());
        }

        @Bean
        BackendVerifier refusing() {
            return new BackendVerifier() {
                @Override
                public boolean appliesTo(Backend backend) {
                    return true;
                }

                @Override
                public void verify(Backend backend) throws BackendException {
                    throw new BackendException(BackendException.Kind.CONDITIONAL_WRITES_NOT_SUPPORTED,
                            "the store accepted a stale If-Match");
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class FlakyVerifier implements BackendVerifier {
        final AtomicInteger attempts = new AtomicInteger();

        @Bean
        InMemoryBackend backend() {
            return new InMemoryBackend();
        }

        @Override
        public boolean appliesTo(Backend backend) {
            return backend instanceof InMemoryBackend;
        }

        @Override
        public void verify(Backend backend) throws BackendException {
            if (attempts.incrementAndGet() < 3) {
                throw new BackendException(BackendException.Kind.UNREACHABLE, "connection refused");
            }
        }
    }

    /** Fails 5 times as unreachable, then 3 times as access denied, each time with another message; then passes. */
    @Configuration(proxyBeanMethods = false)
    static class ChangingVerifier implements BackendVerifier {
        final AtomicInteger attempts = new AtomicInteger();

        @Bean
        InMemoryBackend backend() {
            return new InMemoryBackend();
        }

        @Override
        public boolean appliesTo(Backend backend) {
            return true;
        }

        @Override
        public void verify(Backend backend) throws BackendException {
            int attempt = attempts.incrementAndGet();
            if (attempt <= 5) {
                throw new BackendException(BackendException.Kind.UNREACHABLE,
                        "connection refused (attempt " + attempt + ")");
            }
            if (attempt <= 8) {
                throw new BackendException(BackendException.Kind.ACCESS_DENIED, "access denied (attempt " + attempt + ")");
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UnreachableVerifier implements BackendVerifier {
        @Bean
        InMemoryBackend backend() {
            return new InMemoryBackend();
        }

        @Override
        public boolean appliesTo(Backend backend) {
            return true;
        }

        @Override
        public void verify(Backend backend) throws BackendException {
            throw new BackendException(BackendException.Kind.UNREACHABLE, "connection refused");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NotApplicableVerifier implements BackendVerifier {
        @Bean
        InMemoryBackend backend() {
            return new InMemoryBackend();
        }

        @Override
        public boolean appliesTo(Backend backend) {
            return false;
        }

        @Override
        public void verify(Backend backend) throws BackendException {
            throw new AssertionError("must not be called");
        }
    }
}
