package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.support.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Misspelled hoplock.* keys and settings the chosen store ignores are reported at start-up, not silently dropped. */
@ExtendWith(OutputCaptureExtension.class)
class HoplockPropertyCheckTests {

    /** Without the JVM's system properties: the build passes some hoplock.* ones to the tests. */
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class))
            .withInitializer(context -> context.getEnvironment().getPropertySources().remove("systemProperties"))
            .withPropertyValues("hoplock.backend=memory");

    @Test
    void aMisspelledKeyIsAWarningWithTheClosestPropertyAndTheStartGoesOn(CapturedOutput output) {
        runner.withPropertyValues("hoplock.tll=1s").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(HoplockElections.class).getDefault().settings().ttl())
                    .isEqualTo(Duration.ofSeconds(30));
            assertThat(output.getOut()).contains("hoplock.tll (did you mean hoplock.ttl?), set in property source 'test'",
                    "not a hoplock property", "hoplock.unknown-properties=fail");
        });
    }

    @Test
    void aMisspelledKeyFailsTheStartWhenConfiguredSo() {
        runner.withPropertyValues("hoplock.unknown-properties=fail", "hoplock.tll=1s",
                "hoplock.elections.jobs.relase-timeout=3s").run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("2 settings are not a hoplock property",
                            "hoplock.tll (did you mean hoplock.ttl?)",
                            "hoplock.elections.jobs.relase-timeout (did you mean hoplock.elections.jobs.release-timeout?)");
                    assertThat(analysis.getAction()).contains("Correct the name", "hoplock.unknown-properties=warn");
                });
    }

    @Test
    void everyRelaxedFormOfAKnownPropertyPassesEvenInFailMode() {
        runner.withPropertyValues("hoplock.unknown-properties=fail", "hoplock.TTL=6", "hoplock.releaseTimeout=3s",
                        "hoplock.leader_only.on-non-leader=skip", "hoplock.elections.jobs.ttl=5s",
                        "hoplock.elections[my.job].safety-margin=1s", "hoplock.health.down-on-store-outage=true",
                        "hoplock.s3.bucket=unused")
                .withInitializer(context -> context.getEnvironment().getPropertySources().addLast(
                        new SystemEnvironmentPropertySource("variables", Map.of("HOPLOCK_RELEASE_TIMEOUT", "3",
                                "HOPLOCK_ELECTIONS_JOBS_RENEW", "1", "HOPLOCK_S3_ACCESS_KEY", "x", "PATH", "/bin"))))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(HoplockElections.class).get("jobs").settings().renewInterval())
                            .isEqualTo(Duration.ofSeconds(1));
                });
    }

    @Test
    void aMisspelledEnvironmentVariableIsNamedAsSuch() {
        runner.withPropertyValues("hoplock.unknown-properties=fail")
                .withInitializer(context -> context.getEnvironment().getPropertySources().addLast(
                        new SystemEnvironmentPropertySource("variables", Map.of("HOPLOCK_TLL", "1"))))
                .run(context -> assertThat(Failures.analyze(context.getStartupFailure()).getDescription())
                        .contains("HOPLOCK_TLL (did you mean hoplock.ttl?), set in environment variable HOPLOCK_TLL"));
    }

    @Test
    void jdbcStoreSettingsAreWarnedAboutOnAnotherStoreButFenceSettingsAreNot(CapturedOutput output) {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class))
                .withPropertyValues("hoplock.backend=memory", "hoplock.jdbc.table=ops.leases",
                        "hoplock.fence.table=ops.fences", "hoplock.jdbc.initialize-schema=always")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(output.getOut()).contains("hoplock.jdbc.table (set in property source 'test') has no"
                            + " effect: the store is memory, so hoplock.jdbc.* is not read (the fence's settings are"
                            + " hoplock.fence.*)", "hoplock.jdbc.initialize-schema (set in property source 'test')"
                            + " has no effect").doesNotContain("hoplock.fence.table (set in")
                            .doesNotContain("hoplock.fence.table (did you mean")
                            .doesNotContain("hoplock.jdbc.table (did you mean");
                });
    }

    @Test
    void settingsTheChosenStoreIgnoresAreWarnedAbout(@TempDir Path temp, CapturedOutput output) {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class))
                .withPropertyValues("hoplock.backend=filesystem", "hoplock.filesystem.directory=" + temp,
                        "hoplock.s3.bucket=my-leases", "hoplock.key=orders", "hoplock.elections.jobs.ttl=5s")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(output.getOut()).contains("hoplock.s3.bucket (set in property source 'test') has no"
                                    + " effect: the store is filesystem, so hoplock.s3.* is not read",
                            "hoplock.key (set in property source 'test') has no effect: hoplock.elections.* is"
                                    + " configured");
                });
    }

    @Test
    void campaignWhenIsAKnownPropertyAndItsMisspellingIsNamed() {
        runner.withPropertyValues("hoplock.unknown-properties=fail", "hoplock.campaignWhen=started").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(HoplockProperties.class).getCampaignWhen())
                            .isEqualTo(HoplockProperties.CampaignWhen.STARTED);
                });
        runner.withPropertyValues("hoplock.unknown-properties=fail", "hoplock.campain-when=ready")
                .run(context -> assertThat(Failures.analyze(context.getStartupFailure()).getDescription())
                        .contains("hoplock.campain-when (did you mean hoplock.campaign-when?)"));
    }

    @Test
    void theKnownPropertiesAreDerivedFromTheProperties() {
        List<String> names = KnownProperties.ofHoplock().names();
        assertThat(names).contains("hoplock.enabled", "hoplock.ttl", "hoplock.release-by-delete",
                "hoplock.leader-only.on-non-leader", "hoplock.scheduling.leader-only-all",
                "hoplock.health.down-on-store-outage", "hoplock.campaign-when",
                "hoplock.unknown-properties", "hoplock.s3.secret-key", "hoplock.filesystem.create-directory",
                "hoplock.elections.*.ttl", "hoplock.elections.*.release-by-delete")
                .doesNotContain("hoplock.s3", "hoplock.elections", "hoplock.class",
                        "hoplock.endpoint.step-down-enabled");
        assertThat(KnownProperties.ofHoplock().closest("hoplock.s3.bukcet")).isEqualTo("hoplock.s3.bucket");
        assertThat(KnownProperties.ofHoplock().matchElements(List.of("hoplock", "elections", "jobs")))
                .as("an election with no settings, as YAML writes 'jobs: {}'").contains("hoplock.elections.*");
        assertThat(KnownProperties.ofHoplock().matchVariable("HOPLOCK_ELECTIONS_JOBS_RELEASE_TIMEOUT"))
                .contains("hoplock.elections.*.release-timeout");
    }

    /**
     * The known properties, from which misspellings are told, are exactly those before the properties were split per
     * store and per feature (issue 20, item 4): src/test/resources/metadata-baseline/known-properties.txt.
     */
    @Test
    void theKnownPropertiesAreTheSameAsBeforeTheSplit() throws IOException {
        List<String> before;
        try (InputStream in = getClass().getResourceAsStream("/metadata-baseline/known-properties.txt")) {
            before = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        assertThat(KnownProperties.ofHoplock().names()).hasSize(122).containsExactlyElementsOf(before);
    }
}
