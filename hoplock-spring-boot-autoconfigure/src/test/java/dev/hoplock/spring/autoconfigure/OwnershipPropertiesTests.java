package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.ownership.HoplockOwnership;
import dev.hoplock.spring.support.Failures;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code hoplock.ownership.*}: known to the property check, bound into the group, and refused with the fix when bad. */
class OwnershipPropertiesTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class,
                    HoplockOwnershipAutoConfiguration.class))
            .withInitializer(context -> context.getEnvironment().getPropertySources().remove("systemProperties"))
            .withPropertyValues("hoplock.backend=memory", "hoplock.unknown-properties=fail");

    @Test
    void theOwnershipPropertiesAreKnownAndBound() {
        assertThat(KnownProperties.ofHoplock().names()).contains("hoplock.ownership.group",
                "hoplock.ownership.member-id", "hoplock.ownership.address", "hoplock.ownership.ttl",
                "hoplock.ownership.renew", "hoplock.ownership.poll", "hoplock.ownership.request-timeout",
                "hoplock.ownership.safety-margin", "hoplock.ownership.release-timeout");
        assertThat(KnownProperties.ofHoplock().closest("hoplock.ownership.gruop")).isEqualTo("hoplock.ownership.group");
        runner.withPropertyValues("hoplock.ownership.group=billing", "hoplock.ownership.member-id=pod-1",
                "hoplock.ownership.address=10.0.0.1:8080", "hoplock.ownership.ttl=9", "HOPLOCK_OWNERSHIP_POLL=1s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    HoplockOwnership ownership = context.getBean(HoplockOwnership.class);
                    assertThat(ownership.name()).isEqualTo("billing");
                    assertThat(ownership.self().id()).isEqualTo("pod-1");
                    assertThat(ownership.self().address()).isEqualTo("10.0.0.1:8080");
                    assertThat(ownership.group().settings().ttl()).isEqualTo(Duration.ofSeconds(9));
                    assertThat(ownership.group().settings().key()).isEqualTo("billing/members/pod-1");
                });
    }

    @Test
    void withoutAGroupThereIsNoOwnership() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(HoplockOwnership.class);
        });
    }

    @Test
    void aMisspelledOwnershipPropertyFailsTheStartWithTheClosestName() {
        runner.withPropertyValues("hoplock.ownership.gruop=billing").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("hoplock.ownership.gruop (did you mean"
                    + " hoplock.ownership.group?)");
        });
    }

    @Test
    void aBadOwnershipSettingIsRefusedNamingTheProperty() {
        runner.withPropertyValues("hoplock.ownership.group=billing", "hoplock.ownership.ttl=10s",
                "hoplock.ownership.renew=20s").run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("hoplock.ownership.renew");
                });
        runner.withPropertyValues("hoplock.ownership.group=bad group!").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("hoplock.ownership.group", "bad group!");
            assertThat(analysis.getAction()).contains("letters, digits");
        });
    }
}
