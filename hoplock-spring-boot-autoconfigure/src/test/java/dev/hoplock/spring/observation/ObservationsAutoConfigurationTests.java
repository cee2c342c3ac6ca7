package dev.hoplock.spring.observation;

import dev.hoplock.core.election.Elector;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLeaderOnlyAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLocksAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockObservationsAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockOwnershipAutoConfiguration;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.lock.WithLock;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The auto-configuration of the traces: with an {@link ObservationRegistry} bean, every store request, the lease
 * term and the gated calls that ran are observed; {@code hoplock.observations.enabled=false} or no registry observes
 * nothing, and the gates still work.
 */
class ObservationsAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, HoplockAutoConfiguration.class,
                    HoplockLeaderOnlyAutoConfiguration.class, HoplockLocksAutoConfiguration.class,
                    HoplockObservationsAutoConfiguration.class))
            .withUserConfiguration(Jobs.class)
            .withPropertyValues("hoplock.backend=memory", "hoplock.owner=me", "hoplock.ttl=3s", "hoplock.renew=1s",
                    "hoplock.poll=100ms");

    @Test
    void withARegistryStoreRequestsTheTermAndTheGatedCallsAreObserved() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        runner.withBean(ObservationRegistry.class, () -> registry).run(context -> {
            assertThat(context).hasBean("hoplockObservedBackendDecorator").hasSingleBean(LeaseObservations.class)
                    .doesNotHaveBean(MembershipObservations.class);
            awaitLeader(context);
            Jobs jobs = context.getBean(Jobs.class);
            assertThat(Observation.createNotStarted("caller", registry).observe(jobs::leaderWork)).isEqualTo("ran");
            assertThat(Observation.createNotStarted("caller", registry).observe(jobs::lockedWork)).isEqualTo("ran");

            assertThat(registry)
                    .hasAnObservation(o -> o.hasNameEqualTo(HoplockObservations.STORE_REQUEST)
                            .hasLowCardinalityKeyValue("store", "memory")
                            .hasLowCardinalityKeyValue("primitive", "election")
                            .hasLowCardinalityKeyValue("name", "default")
                            .hasLowCardinalityKeyValue("operation", "write")
                            .hasLowCardinalityKeyValue("outcome", "applied"))
                    .hasAnObservation(o -> o.hasNameEqualTo(HoplockObservations.STORE_REQUEST)
                            .hasLowCardinalityKeyValue("primitive", "lock")
                            .hasLowCardinalityKeyValue("name", "locks"))
                    .hasAnObservation(o -> o.hasNameEqualTo(HoplockObservations.WITH_LOCK)
                            .hasLowCardinalityKeyValue("method", "Jobs.lockedWork")
                            .hasLowCardinalityKeyValue("outcome", "ran"));
            assertThat(registry).hasObservationWithNameEqualTo(HoplockObservations.LEADER_ONLY).that()
                    .hasLowCardinalityKeyValue("election", "default")
                    .hasLowCardinalityKeyValue("method", "Jobs.leaderWork")
                    .hasParentObservationContextMatching(parent -> "caller".equals(parent.getName()));
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(registry)
                    .hasAnObservation(o -> o.hasNameEqualTo(HoplockObservations.LEASE)
                            .hasLowCardinalityKeyValue("primitive", "election")
                            .hasLowCardinalityKeyValue("name", "default")));
        });
    }

    @Test
    void switchedOffNothingIsObservedAndTheGatesStillWork() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        runner.withBean(ObservationRegistry.class, () -> registry)
                .withPropertyValues("hoplock.observations.enabled=false").run(context -> {
                    assertThat(context).doesNotHaveBean("hoplockObservedBackendDecorator")
                            .doesNotHaveBean(LeaseObservations.class);
                    awaitLeader(context);
                    Jobs jobs = context.getBean(Jobs.class);
                    assertThat(jobs.leaderWork()).isEqualTo("ran");
                    assertThat(jobs.lockedWork()).isEqualTo("ran");
                    assertThat(registry).doesNotHaveAnyObservation();
                });
    }

    @Test
    void withoutARegistryNothingIsConfigured() {
        runner.run(context -> {
            assertThat(context).doesNotHaveBean("hoplockObservedBackendDecorator")
                    .doesNotHaveBean(LeaseObservations.class);
            awaitLeader(context);
            assertThat(context.getBean(Jobs.class).leaderWork()).isEqualTo("ran");
        });
    }

    @Test
    void conventionBeansRenameTheObservationsAndAddKeyValuesAndTheMembersLivenessLeaseIsObserved() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        runner.withConfiguration(AutoConfigurations.of(HoplockOwnershipAutoConfiguration.class,
                        // Spring Boot's own: registers GlobalObservationConvention beans on the registry (the gates').
                        ObservationAutoConfiguration.class))
                .withPropertyValues("hoplock.ownership.group=billing", "hoplock.ownership.ttl=3s")
                .withBean(ObservationRegistry.class, () -> registry)
                .withBean(StoreRequestObservationConvention.class, () -> new DefaultStoreRequestObservationConvention() {
                    @Override
                    public String getName() {
                        return "billing.store";
                    }
                })
                .withBean(LeaseObservationConvention.class, () -> new DefaultLeaseObservationConvention() {
                    @Override
                    public KeyValues getLowCardinalityKeyValues(LeaseObservationContext context) {
                        return super.getLowCardinalityKeyValues(context).and("team", "billing");
                    }
                })
                .withBean(LeaderOnlyObservationConvention.class, () -> new DefaultLeaderOnlyObservationConvention() {
                    @Override
                    public String getName() {
                        return "billing.leader-work";
                    }
                })
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    awaitLeader(context);
                    assertThat(context.getBean(Jobs.class).leaderWork()).isEqualTo("ran");

                    assertThat(registry)
                            .hasAnObservation(o -> o.hasNameEqualTo("billing.store")
                                    .hasLowCardinalityKeyValue("primitive", "election")
                                    .hasLowCardinalityKeyValue("outcome", "applied"))
                            .hasAnObservation(o -> o.hasNameEqualTo("billing.leader-work")
                                    .hasLowCardinalityKeyValue("method", "Jobs.leaderWork"));
                    assertThat(registry).hasNumberOfObservationsWithNameEqualTo(HoplockObservations.STORE_REQUEST, 0)
                            .hasNumberOfObservationsWithNameEqualTo(HoplockObservations.LEADER_ONLY, 0);
                    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(registry)
                            .hasAnObservation(o -> o.hasNameEqualTo(HoplockObservations.LEASE)
                                    .hasLowCardinalityKeyValue("primitive", "election")
                                    .hasLowCardinalityKeyValue("team", "billing"))
                            .hasAnObservation(o -> o.hasNameEqualTo(HoplockObservations.LEASE)
                                    .hasLowCardinalityKeyValue("primitive", "ownership")
                                    .hasLowCardinalityKeyValue("name", "billing")
                                    .hasLowCardinalityKeyValue("team", "billing")));
                });
    }

    private static Elector awaitLeader(AssertableApplicationContext context) {
        Elector elector = context.getBean(HoplockElections.class).getDefault();
        await().atMost(Duration.ofSeconds(10)).until(elector::isLeader);
        return elector;
    }

    /** The gated methods (registered as a bean by {@code withUserConfiguration}). */
    static class Jobs {

        @LeaderOnly
        public @Nullable String leaderWork() {
            return "ran";
        }

        @WithLock(name = "observed-report", lockAtMostFor = "30s")
        public @Nullable String lockedWork() {
            return "ran";
        }
    }
}
