package dev.hoplock.spring.it;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLeaderOnlyAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLocksAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockOwnershipAutoConfiguration;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.lock.WithLock;
import dev.hoplock.spring.ownership.HoplockOwnership;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A context that is stopped and started again ({@code context.stop(); context.start()}), or paused and restarted as
 * Spring Framework 7's test context cache does on a context switch ({@code pause(); restart()}): a stop releases the
 * lease at once (a gated call after it is skipped, the store shows the lease released), a start campaigns again, and
 * {@code @LeaderOnly} and {@code @WithLock} run again. The ownership group cannot rejoin once left: it is not paused
 * (it stays joined, so keyed calls run after a restart), and a start after an explicit stop fails naming why.
 */
class StopAndRestartLifecycleTests {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private final InMemoryBackend store = new InMemoryBackend();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, HoplockAutoConfiguration.class,
                    HoplockLeaderOnlyAutoConfiguration.class, HoplockLocksAutoConfiguration.class))
            .withBean(Backend.class, () -> store)
            .withUserConfiguration(JobsConfig.class)
            .withPropertyValues("hoplock.owner=me", "hoplock.ttl=1500ms", "hoplock.renew=500ms",
                    "hoplock.poll=100ms", "hoplock.release-timeout=1s");

    private final ApplicationContextRunner withOwnership = runner
            .withConfiguration(AutoConfigurations.of(HoplockOwnershipAutoConfiguration.class))
            .withUserConfiguration(KeyedJobsConfig.class)
            .withPropertyValues("hoplock.ownership.group=billing", "hoplock.ownership.member-id=me",
                    "hoplock.ownership.ttl=1500ms", "hoplock.ownership.renew=500ms", "hoplock.ownership.poll=100ms",
                    "hoplock.ownership.release-timeout=1s");

    @Test
    void aStoppedContextReleasesTheLeaseSkipsGatedCallsAndLeadsAgainWhenStarted() {
        runner.run(context -> {
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            Jobs jobs = context.getBean(Jobs.class);
            await().atMost(WAIT).until(elector::isLeader);
            assertThat(jobs.leaderWork()).isEqualTo("ran");

            context.stop();

            assertThat(elector.isLeader()).as("no term after the stop").isFalse();
            assertThat(jobs.leaderWork()).as("a @LeaderOnly call after the stop is skipped").isNull();
            assertThat(jobs.lockedWork()).as("a @WithLock call after the stop is skipped").isNull();
            assertThat(context.getBean(Locks.class).held()).isEmpty();
            assertThat(context.getBean(HoplockElections.class).candidacy().withdrawnBecause())
                    .hasValueSatisfying(why -> assertThat(why).contains("application context is stopped"));
            await().atMost(WAIT).until(() -> storedRecord(elector).map(LeaseRecord::isReleased).orElse(false));
            assertThat(elector.isStopped()).as("withdrawn, not closed").isFalse();

            context.start();

            // On the in-memory store the start waits for the first round, past the TTL the step-down pauses for.
            assertThat(elector.isLeader()).as("leads again as soon as the start returns").isTrue();
            assertThat(jobs.leaderWork()).as("@LeaderOnly runs again").isEqualTo("ran");
            assertThat(jobs.lockedWork()).as("@WithLock runs again").isEqualTo("ran");
            assertThat(storedRecord(elector).orElseThrow().isReleased()).isFalse();
        });
    }

    /**
     * Review finding: readiness and the stop withdraw each on their own account. Accepting traffic while stopped does
     * not campaign (it did: the readiness listener entered the one shared candidacy), and a context stopped while
     * refusing traffic starts again withdrawn until it accepts traffic (the stop was not recorded at all).
     */
    @Test
    void readinessWhileStoppedWaitsForTheStartAndAStopWhileRefusingTrafficWaitsForReadiness() {
        runner.run(context -> {
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            Jobs jobs = context.getBean(Jobs.class);
            await().atMost(WAIT).until(elector::isLeader);

            AvailabilityChangeEvent.publish(context, ReadinessState.REFUSING_TRAFFIC);
            await().atMost(WAIT).until(() -> storedRecord(elector).map(LeaseRecord::isReleased).orElse(false));
            context.stop();
            AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);

            assertThat(context.getBean(HoplockElections.class).candidacy().withdrawnBecause())
                    .hasValueSatisfying(why -> assertThat(why).contains("application context is stopped"));
            await().during(Duration.ofMillis(1800)).atMost(WAIT).until(() -> !elector.isLeader());
            assertThat(jobs.leaderWork()).as("stopped: skipped although accepting traffic").isNull();

            context.start();
            await().atMost(WAIT).until(elector::isLeader);
            assertThat(jobs.leaderWork()).isEqualTo("ran");

            AvailabilityChangeEvent.publish(context, ReadinessState.REFUSING_TRAFFIC);
            await().atMost(WAIT).until(() -> !elector.isLeader());
            context.stop();
            context.start();

            assertThat(context.getBean(HoplockElections.class).candidacy().withdrawnBecause())
                    .hasValueSatisfying(why -> assertThat(why).contains("REFUSING_TRAFFIC")
                            .doesNotContain("application context is stopped"));
            await().during(Duration.ofMillis(1800)).atMost(WAIT).until(() -> !elector.isLeader());
            assertThat(jobs.lockedWork()).as("refusing traffic: @WithLock skipped after the start").isNull();

            AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
            await().atMost(WAIT).until(elector::isLeader);
            assertThat(jobs.lockedWork()).isEqualTo("ran");
        });
    }

    @Test
    void aPausedContextLeadsAgainWhenRestartedAsSpringsTestContextCacheDoes() {
        runner.run(context -> {
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            Jobs jobs = context.getBean(Jobs.class);
            await().atMost(WAIT).until(elector::isLeader);

            pause(context);

            assertThat(elector.isLeader()).isFalse();
            assertThat(jobs.leaderWork()).isNull();
            await().atMost(WAIT).until(() -> storedRecord(elector).map(LeaseRecord::isReleased).orElse(false));

            restart(context);

            assertThat(elector.isLeader()).as("leads again as soon as the restart returns").isTrue();
            assertThat(jobs.leaderWork()).isEqualTo("ran");
            assertThat(jobs.lockedWork()).isEqualTo("ran");
        });
    }

    @Test
    void theOwnershipGroupStaysJoinedThroughAPauseAndKeyedCallsRunAfterTheRestart() {
        withOwnership.run(context -> {
            HoplockOwnership ownership = context.getBean(HoplockOwnership.class);
            Elector elector = context.getBean(HoplockElections.class).getDefault();
            Jobs jobs = context.getBean(Jobs.class);
            KeyedJobs keyed = context.getBean(KeyedJobs.class);
            await().atMost(WAIT).until(() -> ownership.isOwner("org-1"));
            assertThat(keyed.keyedWork("org-1")).isEqualTo("ran");

            pause(context);
            restart(context);

            await().atMost(WAIT).until(elector::isLeader);
            await().atMost(WAIT).until(() -> ownership.isOwner("org-1"));
            assertThat(keyed.keyedWork("org-1")).as("keyed @LeaderOnly runs after the restart").isEqualTo("ran");
            assertThat(jobs.leaderWork()).isEqualTo("ran");
        });
    }

    @Test
    void anExplicitStopLeavesTheOwnershipGroupAndAStartAfterItFailsNamingWhy() {
        withOwnership.run(context -> {
            HoplockOwnership ownership = context.getBean(HoplockOwnership.class);
            KeyedJobs keyed = context.getBean(KeyedJobs.class);
            await().atMost(WAIT).until(() -> ownership.isOwner("org-1"));

            context.stop();

            assertThat(ownership.isOwner("org-1")).isFalse();
            assertThat(keyed.keyedWork("org-1")).as("a keyed call after the stop is skipped").isNull();
            assertThatThrownBy(context::start).hasStackTraceContaining("ownership group 'billing'")
                    .hasStackTraceContaining("cannot rejoin");
        });
    }

    /** What Spring Framework 7's test context cache does to a cached context on a context switch. */
    private static void pause(ConfigurableApplicationContext context) {
        context.pause();
    }

    /** What it does when a test uses that context again. */
    private static void restart(ConfigurableApplicationContext context) {
        context.restart();
    }

    private Optional<LeaseRecord> storedRecord(Elector elector) throws Exception {
        Optional<StoredObject> stored = store.read(elector.key(), Duration.ofSeconds(5));
        return stored.isEmpty() ? Optional.empty() : Optional.of(LeaseRecordCodec.decode(stored.get().content()));
    }

    /** One gated method of each kind; each returns "ran", or null when skipped. */
    public static class Jobs {

        @LeaderOnly
        public @Nullable String leaderWork() {
            return "ran";
        }

        @WithLock(name = "report", lockAtMostFor = "1m")
        public @Nullable String lockedWork() {
            return "ran";
        }

    }

    /** A keyed gated method (needs an ownership group): "ran", or null when skipped. */
    public static class KeyedJobs {

        @LeaderOnly(key = "#orgId")
        public @Nullable String keyedWork(String orgId) {
            return "ran";
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class JobsConfig {
        @Bean
        Jobs jobs() {
            return new Jobs();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class KeyedJobsConfig {
        @Bean
        KeyedJobs keyedJobs() {
            return new KeyedJobs();
        }
    }
}
