package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.StoreVerification;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.support.CountingBackend;
import org.jspecify.annotations.Nullable;
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
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The store's verification before campaigning ({@link Backend#verify()}, run by each elector; the S3 conditional-write
 * probe in production), as the application sees it: a refused store is never campaigned on and reports DOWN while the
 * application stays up; a store that cannot be asked yet is asked again.
 */
@ExtendWith(OutputCaptureExtension.class)
class StoreVerificationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class,
                    HoplockHealthAutoConfiguration.class))
            .withPropertyValues("hoplock.ttl=1s", "hoplock.renew=300ms", "hoplock.poll=50ms");

    @Test
    void aRefusedStoreIsNeverCampaignedOnAndHealthSaysWhy() {
        runner.withUserConfiguration(RefusingStore.class).run(context -> {
            assertThat(context).hasNotFailed();
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> elector.status().verification() == StoreVerification.REFUSED);
            assertThat(elector.isLeader()).isFalse();
            assertThat(context.getBean(CountingBackend.class).requests()).as("no election request").isZero();
            Health health = health(context);
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(Objects.requireNonNull(health.getDetails().get("reason"), "a reason").toString())
                    .contains("refused the conditional-write probe", "does not support conditional swap",
                            "accepted a stale If-Match");
            assertThat(health.getDetails()).containsEntry("verification", "refused")
                    .containsEntry("capabilities", "create VERIFIED, swap NOT_SUPPORTED, delete VERIFIED, handles"
                            + " as received");
        });
    }

    @Test
    void aStoreThatCannotBeAskedYetIsAskedAgainThenCampaignedOn() {
        runner.withUserConfiguration(FlakyStore.class).run(context -> {
            assertThat(context).hasNotFailed();
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            await().atMost(Duration.ofSeconds(5)).until(elector::isLeader);
            // The script passes from the third attempt on, so leading proves the two failures were asked again. More
            // attempts are legitimate: a verification thread stalled past the request timeout is abandoned and asked
            // again, though the store answered it.
            assertThat(context.getBean(ScriptedStore.class).attempts.get()).isGreaterThanOrEqualTo(3);
            assertThat(elector.status().verification()).isEqualTo(StoreVerification.VERIFIED);
            assertThat(health(context).getStatus()).isEqualTo(Status.UP);
        });
    }

    @Test
    void aFailingCheckIsLoggedOncePerKindOfFailure(CapturedOutput output) {
        runner.withUserConfiguration(ChangingStore.class).run(context -> {
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            await().atMost(Duration.ofSeconds(10)).until(elector::isLeader);
            assertThat(context.getBean(ScriptedStore.class).attempts.get())
                    .as("the script passes from the ninth attempt on").isGreaterThanOrEqualTo(9);
            // A verification stalled past the request timeout (a loaded machine) is a failure of its own kind, "no
            // answer", logged once, and the script's answer to that attempt is never seen: which attempt number is
            // logged first depends on the scheduler, but each kind the store answered is logged exactly once.
            List<String> failures = output.getOut().lines().filter(line -> line.contains("verify failed"))
                    .filter(line -> !line.contains("no answer from")).toList();
            assertThat(failures).as("one line for the 5 unreachable attempts, one for the 3 access-denied ones")
                    .hasSize(2)
                    .satisfiesExactly(
                            unreachable -> assertThat(unreachable)
                                    .containsPattern("connection refused \\(attempt [1-5]\\)"),
                            denied -> assertThat(denied).containsPattern("access denied \\(attempt [6-8]\\)"));
        });
    }

    @Test
    void aStoreThatCannotBeAskedForATtlIsUnknownByDefault() {
        runner.withUserConfiguration(UnreachableStore.class).run(context -> {
            await().atMost(Duration.ofSeconds(5)).until(() -> Objects.requireNonNull(
                    health(context).getDetails().get("reason"), "a reason").toString()
                    .contains("could not be checked"));
            assertThat(health(context).getStatus()).isEqualTo(Status.UNKNOWN);
        });
    }

    @Test
    void aStoreThatCannotBeAskedForATtlIsDownWhenOutagesCountAsDown() {
        runner.withUserConfiguration(UnreachableStore.class)
                .withPropertyValues("hoplock.health.down-on-store-outage=true").run(context -> {
            await().atMost(Duration.ofSeconds(5)).until(() -> health(context).getStatus().equals(Status.DOWN));
            assertThat(Objects.requireNonNull(health(context).getDetails().get("reason"), "a reason").toString())
                    .contains("could not be checked", "connection refused");
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            assertThat(elector.status().verification()).isEqualTo(StoreVerification.VERIFYING);
            assertThat(elector.status().holder()).isEmpty();
        });
    }

    @Test
    void aStoreThatChecksNothingIsCampaignedOnAtOnce() {
        runner.withUserConfiguration(PlainStore.class).run(context -> {
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            await().atMost(Duration.ofSeconds(5)).until(elector::isLeader);
            assertThat(elector.status().verification()).isEqualTo(StoreVerification.VERIFIED);
            assertThat(health(context).getDetails()).containsEntry("verification", "verified");
        });
    }

    private static Health health(org.springframework.context.ApplicationContext context) {
        CompositeHealthContributor composite = context.getBean("hoplockHealthContributor",
                CompositeHealthContributor.class);
        HealthIndicator indicator = (HealthIndicator) Objects.requireNonNull(composite.getContributor("default"),
                "a contributor per election");
        return Objects.requireNonNull(indicator.health(), "an indicator answers");
    }

    /** An in-memory store whose {@link #verify()} runs a script: {@code attempt -> capabilities}, or throws. */
    static final class ScriptedStore implements Backend {
        final AtomicInteger attempts = new AtomicInteger();
        private final InMemoryBackend store = new InMemoryBackend();
        private final Script script;

        interface Script {
            StoreCapabilities verify(int attempt) throws BackendException;
        }

        ScriptedStore(Script script) {
            this.script = script;
        }

        @Override
        public StoreCapabilities verify() throws BackendException {
            return script.verify(attempts.incrementAndGet());
        }

        @Override
        public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
            return store.read(key, timeout);
        }

        @Override
        public WriteResult write(String key, Handle expected, byte[] content, Duration timeout)
                throws BackendException {
            return store.write(key, expected, content, timeout);
        }

        @Override
        public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
            return store.delete(key, expected, timeout);
        }
    }

    /** Every capability verified, or all but {@code missing}. */
    static StoreCapabilities probed(StoreCapabilities.@Nullable Capability missing) {
        StoreCapabilities.Builder builder = StoreCapabilities.builder("scripted");
        for (StoreCapabilities.Capability capability : StoreCapabilities.Capability.values()) {
            builder.set(capability, capability == missing ? StoreCapabilities.Support.NOT_SUPPORTED
                    : StoreCapabilities.Support.VERIFIED, capability == missing ? "the store accepted a stale If-Match"
                    : "");
        }
        return builder.build();
    }

    @Configuration(proxyBeanMethods = false)
    static class RefusingStore {
        @Bean
        CountingBackend backend() {
            return new CountingBackend(new ScriptedStore(
                    attempt -> probed(StoreCapabilities.Capability.CONDITIONAL_SWAP)));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class FlakyStore {
        @Bean
        ScriptedStore backend() {
            return new ScriptedStore(attempt -> {
                if (attempt < 3) {
                    throw new BackendException(BackendException.Kind.UNREACHABLE, "connection refused");
                }
                return probed(null);
            });
        }
    }

    /** Fails 5 times as unreachable, then 3 times as access denied, each time with another message; then passes. */
    @Configuration(proxyBeanMethods = false)
    static class ChangingStore {
        @Bean
        ScriptedStore backend() {
            return new ScriptedStore(attempt -> {
                if (attempt <= 5) {
                    throw new BackendException(BackendException.Kind.UNREACHABLE,
                            "connection refused (attempt " + attempt + ")");
                }
                if (attempt <= 8) {
                    throw new BackendException(BackendException.Kind.ACCESS_DENIED,
                            "access denied (attempt " + attempt + ")");
                }
                return probed(null);
            });
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UnreachableStore {
        @Bean
        ScriptedStore backend() {
            return new ScriptedStore(attempt -> {
                throw new BackendException(BackendException.Kind.UNREACHABLE, "connection refused");
            });
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class PlainStore {
        @Bean
        InMemoryBackend backend() {
            return new InMemoryBackend();
        }
    }
}
