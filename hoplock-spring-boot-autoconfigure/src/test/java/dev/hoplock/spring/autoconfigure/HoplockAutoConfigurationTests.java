package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.FilesystemBackend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.spring.leader.BackendDecorator;
import dev.hoplock.spring.leader.ElectorCustomizer;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.LeadershipEventPublisher;
import dev.hoplock.spring.support.CountingBackend;
import dev.hoplock.spring.support.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Backend selection, elections, lifecycle beans and every failure path of {@link HoplockAutoConfiguration}. */
class HoplockAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class));

    @Test
    void memoryBackendGivesOneDefaultElectionThatStartsWithTheContext() {
        runner.withPropertyValues("hoplock.backend=memory").run(context -> {
            assertThat(context).hasSingleBean(InMemoryBackend.class).hasSingleBean(HoplockElections.class)
                    .hasSingleBean(LeadershipEventPublisher.class)
                    .hasBean("hoplockLifecycle");
            HoplockElections elections = context.getBean(HoplockElections.class);
            assertThat(elections.names()).containsExactly("default");
            assertThat(elections.defaultName()).contains("default");
            Elector elector = elections.getDefault();
            assertThat(elector.key()).isEqualTo("default");
            assertThat(elector.settings().ttl()).isEqualTo(Duration.ofSeconds(30));
            assertThat(elector.settings().renewInterval()).isEqualTo(Duration.ofSeconds(10));
            assertThat(elector.settings().releaseTimeout()).isEqualTo(Duration.ofSeconds(2));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(elector::isLeader);
            assertThat(elector.status().verification()).isEqualTo(
                    dev.hoplock.core.election.StoreVerification.VERIFIED);
            assertThat(elector.status().capabilities()).get().extracting(c -> c.summary())
                    .isEqualTo("create ASSUMED, swap ASSUMED, delete ASSUMED, handles as received");
        });
    }

    @Test
    void filesystemBackendCreatesItsDirectory(@TempDir Path temp) {
        Path directory = temp.resolve("a/b");
        runner.withPropertyValues("hoplock.backend=filesystem", "hoplock.filesystem.directory=" + directory)
                .run(context -> {
                    assertThat(context).hasSingleBean(FilesystemBackend.class);
                    assertThat(context.getBean(FilesystemBackend.class).directory()).isEqualTo(directory.toAbsolutePath());
                    assertThat(directory).isDirectory();
                });
    }

    @Test
    void anExistingDirectoryThatIsNotWritableFailsTheStartNamingItTheUserAndTheFix(@TempDir Path temp)
            throws Exception {
        Path directory = notWritableDirectory(temp);
        runner.withPropertyValues("hoplock.backend=filesystem", "hoplock.filesystem.directory=" + directory)
                .run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    String user = System.getProperty("user.name");
                    assertThat(analysis.getDescription()).contains(directory.toAbsolutePath().toString(),
                            "hoplock.filesystem.directory", "is not writable by the user '" + user + "'",
                            "No instance could ever lead");
                    assertThat(analysis.getAction()).contains("Grant the user '" + user + "' read and write access",
                            "chown", "or point hoplock.filesystem.directory at a writable directory");
                });
    }

    /**
     * A directory this process cannot create files in. Root may write anywhere a permission applies, so as root
     * this is /sys (a kernel file system that refuses new files to everyone); otherwise a directory of mode 0555.
     */
    private static Path notWritableDirectory(Path temp) throws Exception {
        Path directory;
        if ("root".equals(System.getProperty("user.name"))) {
            directory = Path.of("/sys");
        } else {
            directory = java.nio.file.Files.createDirectory(temp.resolve("read-only"));
            java.nio.file.Files.setPosixFilePermissions(directory,
                    java.nio.file.attribute.PosixFilePermissions.fromString("r-xr-xr-x"));
        }
        Path target = directory;
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(target)
                && !canCreateAFileIn(target), () -> target + " is writable here, so it cannot stand for one that is not");
        return directory;
    }

    private static boolean canCreateAFileIn(Path directory) {
        try {
            java.nio.file.Files.delete(java.nio.file.Files.createTempFile(directory, "probe", ".tmp"));
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    @Test
    void filesystemIsChosenWhenOnlyADirectoryIsSet(@TempDir Path temp) {
        runner.withPropertyValues("hoplock.filesystem.directory=" + temp).run(context ->
                assertThat(context).hasSingleBean(FilesystemBackend.class));
    }

    @Test
    void missingDirectoryWithoutCreationFailsNamingTheProperty(@TempDir Path temp) {
        runner.withPropertyValues("hoplock.backend=filesystem", "hoplock.filesystem.directory=" + temp.resolve("nope"),
                "hoplock.filesystem.create-directory=false").run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("hoplock.filesystem.directory").contains("nope");
                    assertThat(analysis.getAction()).contains("hoplock.filesystem.create-directory=true");
                });
    }

    @Test
    void filesystemWithoutDirectoryFailsNamingTheProperty() {
        runner.withPropertyValues("hoplock.backend=filesystem").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("hoplock.filesystem.directory is not set");
            assertThat(analysis.getAction()).contains("Set hoplock.filesystem.directory");
        });
    }

    @Test
    void noStoreConfiguredFailsWithWhatToSet() {
        runner.run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("hoplock.backend is not set");
            assertThat(analysis.getAction()).contains("hoplock.backend=filesystem", "hoplock.backend=s3",
                    "hoplock.enabled=false", "Backend bean");
            for (BackendType store : BackendType.values()) {
                assertThat(analysis.getAction()).as("the choices list every store").contains("hoplock.backend="
                        + store.value());
                if (store.module() != null) {
                    assertThat(analysis.getAction()).as("with the module it needs").contains(store.module());
                }
            }
        });
    }

    @Test
    void bucketAndDirectoryTogetherAreAmbiguous(@TempDir Path temp) {
        runner.withPropertyValues("hoplock.s3.bucket=b", "hoplock.filesystem.directory=" + temp).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("ambiguous");
            assertThat(analysis.getAction()).contains("hoplock.backend");
        });
    }

    @Test
    void disabledCreatesNothing() {
        runner.withPropertyValues("hoplock.enabled=false", "hoplock.backend=memory").run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean(HoplockElections.class)
                        .doesNotHaveBean(Backend.class).doesNotHaveBean(HoplockProperties.class));
    }

    @Test
    void applicationBackendBeanWinsOverTheProperty() {
        runner.withUserConfiguration(OwnBackend.class)
                .withPropertyValues("hoplock.backend=s3", "hoplock.s3.bucket=never-used").run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(Backend.class);
                    assertThat(context.getBean(Backend.class)).isInstanceOf(CountingBackend.class);
                    assertThat(context.getBean(HoplockElections.class).getDefault().status().backend())
                            .isEqualTo("counting memory");
                });
    }

    @Test
    void namedElectionsInheritTheDefaults() {
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.ttl=12s", "hoplock.renew=3s",
                "hoplock.owner=node-a", "hoplock.elections.jobs.ttl=9s",
                "hoplock.elections.reports.key=team/reports", "hoplock.elections.reports.poll=250ms",
                "hoplock.elections.reports.owner=node-a-reports").run(context -> {
                    HoplockElections elections = context.getBean(HoplockElections.class);
                    assertThat(elections.names()).containsExactly("jobs", "reports");
                    assertThat(elections.defaultName()).isEmpty();
                    Elector jobs = elections.get("jobs");
                    assertThat(jobs.key()).isEqualTo("jobs");
                    assertThat(jobs.owner()).isEqualTo("node-a");
                    assertThat(jobs.settings().ttl()).isEqualTo(Duration.ofSeconds(9));
                    assertThat(jobs.settings().renewInterval()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(jobs.settings().pollInterval()).isEqualTo(Duration.ofMillis(600));
                    Elector reports = elections.get("reports");
                    assertThat(reports.key()).isEqualTo("team/reports");
                    assertThat(reports.owner()).isEqualTo("node-a-reports");
                    assertThat(reports.settings().ttl()).isEqualTo(Duration.ofSeconds(12));
                    assertThat(reports.settings().pollInterval()).isEqualTo(Duration.ofMillis(250));
                });
    }

    @Test
    void durationsWithoutAUnitAreSeconds() {
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.ttl=6", "hoplock.renew=2", "hoplock.poll=1",
                "hoplock.release-timeout=3", "hoplock.elections.jobs.ttl=9", "hoplock.elections.jobs.safety-margin=1",
                "hoplock.elections.reports.request-timeout=1").run(context -> {
                    HoplockElections elections = context.getBean(HoplockElections.class);
                    Elector jobs = elections.get("jobs");
                    assertThat(jobs.settings().ttl()).isEqualTo(Duration.ofSeconds(9));
                    assertThat(jobs.settings().renewInterval()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(jobs.settings().pollInterval()).isEqualTo(Duration.ofSeconds(1));
                    assertThat(jobs.settings().safetyMargin()).isEqualTo(Duration.ofSeconds(1));
                    assertThat(jobs.settings().releaseTimeout()).isEqualTo(Duration.ofSeconds(3));
                    Elector reports = elections.get("reports");
                    assertThat(reports.settings().ttl()).isEqualTo(Duration.ofSeconds(6));
                    assertThat(reports.settings().requestTimeout()).isEqualTo(Duration.ofSeconds(1));
                });
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.ttl=6").run(context ->
                assertThat(context.getBean(HoplockElections.class).getDefault().settings().ttl())
                        .isEqualTo(Duration.ofSeconds(6)));
    }

    @Test
    void aTtlBelowOneSecondFailsNamingTheProperty() {
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.ttl=5ms").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).startsWith("Invalid hoplock setting hoplock.ttl (election 'default')")
                    .contains("5ms", "below the minimum of 1s");
            assertThat(analysis.getAction()).contains("Set hoplock.ttl to at least 1s",
                    "A value without a unit is in seconds");
        });
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.elections.jobs.ttl=999ms").run(context ->
                assertThat(Failures.analyze(context.getStartupFailure()).getDescription())
                        .contains("hoplock.elections.jobs.ttl", "999ms"));
    }

    @Test
    void electionsShareOneGeneratedOwnerPerContext() {
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.elections.a.ttl=5s", "hoplock.elections.b.ttl=5s")
                .run(context -> {
                    HoplockElections elections = context.getBean(HoplockElections.class);
                    assertThat(elections.get("a").owner()).isEqualTo(elections.get("b").owner()).contains(":");
                });
    }

    @Test
    void anElectionNamedDefaultIsTheDefault() {
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.elections.default.ttl=5s",
                "hoplock.elections.other.ttl=5s").run(context ->
                assertThat(context.getBean(HoplockElections.class).defaultName()).contains("default"));
    }

    @Test
    void twoElectionsOnOneKeyFailNamingTheProperty() {
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.elections.a.key=same",
                "hoplock.elections.b.key=same").run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("'a'", "'b'", "'same'", "hoplock.elections.b.key");
                    assertThat(analysis.getAction()).contains("hoplock.elections.b.key");
                });
    }

    @Test
    void renewTooLongFailsNamingTheGlobalProperty() {
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.ttl=10s", "hoplock.renew=9500ms").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            // The reason is the core's, never rewritten: in Boot's words once the core gives the value as a field.
            assertThat(analysis.getDescription()).startsWith("Invalid hoplock setting hoplock.renew (election 'default')")
                    .contains("must be shorter than ttl");
            assertThat(analysis.getAction()).contains("Set hoplock.renew below", "hoplock.ttl");
        });
    }

    @Test
    void invalidElectionSettingNamesTheElectionsProperty() {
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.elections.jobs.safety-margin=40s")
                .run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("hoplock.elections.jobs.safety-margin",
                            "(election 'jobs')", "shorter than ttl");
                    assertThat(analysis.getAction()).contains("Set hoplock.elections.jobs.safety-margin");
                });
    }

    @Test
    void zeroPollFailsNamingThePoll() {
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.poll=0s").run(context ->
                assertThat(Failures.analyze(context.getStartupFailure()).getDescription())
                        .contains("hoplock.poll", "must be positive"));
    }

    @Test
    void invalidKeyFailsNamingTheKeyProperty() {
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.key=a//b").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("hoplock.key", "a//b");
            assertThat(analysis.getAction()).contains("segments of letters");
        });
        runner.withPropertyValues("hoplock.backend=memory", "hoplock.elections.bad-name.ttl=5s",
                "hoplock.elections.bad-name.key=..").run(context ->
                assertThat(Failures.analyze(context.getStartupFailure()).getDescription())
                        .contains("hoplock.elections.bad-name.key"));
    }

    @Test
    void decoratorsAndCustomizersApplyToEveryElection() {
        runner.withUserConfiguration(Customizations.class)
                .withPropertyValues("hoplock.backend=memory", "hoplock.elections.a.ttl=5s", "hoplock.elections.b.ttl=5s")
                .run(context -> {
                    Customizations customizations = context.getBean(Customizations.class);
                    assertThat(customizations.decorated).containsOnlyKeys("a", "b");
                    assertThat(customizations.customized.get()).isEqualTo(2);
                    HoplockElections elections = context.getBean(HoplockElections.class);
                    assertThat(elections.get("a").settings().releaseTimeout()).isEqualTo(Duration.ofMillis(123));
                    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5))
                            .until(() -> Objects.requireNonNull(customizations.decorated.get("a"), "decorated")
                                    .requests() > 0);
                });
    }

    @Test
    void applicationRegistryBeanWins() {
        runner.withUserConfiguration(OwnRegistry.class).withPropertyValues("hoplock.backend=memory").run(context -> {
            assertThat(context).hasSingleBean(HoplockElections.class);
            assertThat(context.getBean(HoplockElections.class).names()).containsExactly("mine");
        });
    }

    @Test
    void theElectorsAreClosedWithTheContext() {
        Elector[] seen = new Elector[1];
        runner.withPropertyValues("hoplock.backend=memory").run(context ->
                seen[0] = context.getBean(HoplockElections.class).getDefault());
        assertThat(seen[0].isStopped()).isTrue();
        assertThat(seen[0].isLeader()).isFalse();
    }

    @Test
    void withoutS3TheStoreIsVerifiedByItsBackendAlone() {
        runner.withPropertyValues("hoplock.backend=memory")
                .withClassLoader(new org.springframework.boot.test.context.FilteredClassLoader("dev.hoplock.s3"))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Elector elector = context.getBean(HoplockElections.class).getDefault();
                    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(elector::isLeader);
                    assertThat(elector.status().verification()).isEqualTo(
                            dev.hoplock.core.election.StoreVerification.VERIFIED);
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnBackend {
        @Bean
        CountingBackend myBackend() {
            return new CountingBackend(new InMemoryBackend());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnRegistry {
        @Bean
        HoplockElections myElections() {
            return new HoplockElections(Map.of("mine", Elector.builder(new InMemoryBackend(), "mine").build()), "mine");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Customizations {
        final Map<String, CountingBackend> decorated = new ConcurrentHashMap<>();
        final AtomicInteger customized = new AtomicInteger();

        @Bean
        BackendDecorator counting() {
            return (election, backend) -> decorated.computeIfAbsent(election, e -> new CountingBackend(backend));
        }

        @Bean
        ElectorCustomizer shortRelease() {
            return (election, builder) -> {
                customized.incrementAndGet();
                builder.releaseTimeout(Duration.ofMillis(123));
            };
        }
    }
}
