package dev.hoplock.spring.actuate;

import dev.hoplock.spring.autoconfigure.HoplockHealthAutoConfiguration;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.PropertiesEndpointAccessResolver;
import dev.hoplock.spring.autoconfigure.HoplockEndpointAutoConfiguration;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.LossCause;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.leader.ElectionApplicationEvent;
import dev.hoplock.spring.leader.LeaderObservedEvent;
import dev.hoplock.spring.leader.LeadershipAcquiredEvent;
import dev.hoplock.spring.leader.LeadershipLostEvent;
import dev.hoplock.spring.leader.HoplockMeterBinder;
import dev.hoplock.spring.autoconfigure.HoplockMetricsAutoConfiguration;
import dev.hoplock.spring.leader.MeteredBackend;
import dev.hoplock.spring.leader.SkippedCallCounter;
import dev.hoplock.spring.support.SwitchableBackend;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Metrics, health, the endpoint and the application events, each present or absent by its conditions. */
class ObservabilityTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class,
                    HoplockMetricsAutoConfiguration.class, HoplockHealthAutoConfiguration.class,
                    HoplockEndpointAutoConfiguration.class, MetricsAutoConfiguration.class,
                    CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
            .withPropertyValues("hoplock.backend=memory", "hoplock.owner=me", "hoplock.ttl=3s",
                    "hoplock.renew=1s", "hoplock.poll=100ms");

    /** A short TTL, for the tests that wait for a TTL to pass. */
    private static final String[] SHORT_TTL = {"hoplock.ttl=1s", "hoplock.renew=300ms"};

    // ------------------------------------------------------------------ metrics

    @Test
    void metricsTellTheTruthAboutLeadershipAndRequests() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(HoplockMeterBinder.class).hasSingleBean(SkippedCallCounter.class)
                    .hasBean("hoplockMeteredBackendDecorator");
            Elector elector = awaitLeader(context);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get(HoplockMeterBinder.LEADER).tag("election", "default").gauge().value()).isEqualTo(1);
            assertThat(registry.get(HoplockMeterBinder.GENERATION).tag("election", "default").gauge().value())
                    .isEqualTo(elector.currentLease().orElseThrow().generation());
            assertThat(registry.get(HoplockMeterBinder.LEASE_REMAINING).gauge().value()).isPositive().isLessThan(3.0);
            await().atMost(Duration.ofSeconds(5)).until(() ->
                    registry.get(HoplockMeterBinder.ACQUISITIONS).counter().count() == 1);
            assertThat(registry.get(MeteredBackend.METER).tag("primitive", "election").tag("operation", "write")
                    .tag("outcome", "written").timer().count()).isPositive();
            assertThat(registry.get(MeteredBackend.METER).tag("operation", "read").tag("primitive", "election")
                    .tag("name", "default").timers()).as("reads, whatever their outcome")
                    .anySatisfy(reads -> assertThat(reads.count()).isPositive());
            assertThat(registry.get(MeteredBackend.METER).tag("operation", "delete").tag("outcome", "error")
                    .timer().count()).as("registered at start, 0 until it happens").isZero();

            assertThat(elector.stepDown()).isTrue();
            assertThat(registry.get(HoplockMeterBinder.LEADER).gauge().value()).isZero();
            assertThat(registry.get(HoplockMeterBinder.LEASE_REMAINING).gauge().value()).isZero();
            await().atMost(Duration.ofSeconds(5)).until(() ->
                    registry.get(HoplockMeterBinder.LOSSES).tag("cause", "stepped_down").counter().count() == 1);
            assertThat(registry.get(HoplockMeterBinder.LOSSES).tag("cause", "taken_over").counter().count()).isZero();
        });
    }

    @Test
    void noMetricsWithoutARegistryOrWithoutMicrometer() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class,
                        HoplockMetricsAutoConfiguration.class))
                .withPropertyValues("hoplock.backend=memory")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(HoplockElections.class)
                        .doesNotHaveBean(HoplockMeterBinder.class).doesNotHaveBean(SkippedCallCounter.class));
        runner.withClassLoader(new FilteredClassLoader("io.micrometer.core"))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(HoplockElections.class)
                        .doesNotHaveBean("hoplockMeterBinder"));
    }

    // ------------------------------------------------------------------ health

    @Test
    void healthIsUpWithTheDetailsOfALeader() {
        runner.run(context -> {
            awaitLeader(context);
            Health health = health(context, "default");
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("role", "leader").containsEntry("owner", "me")
                    .containsEntry("holder", "me").containsEntry("generation", 1L)
                    .containsEntry("backend", "memory").containsEntry("key", "default")
                    .containsKeys("expiresAt", "timeLeft", "sinceStoreAnswered");
        });
    }

    @Test
    void aStoreThatNeverAnswersIsUnknownByDefaultSoTheApplicationStaysUp() {
        runner.withUserConfiguration(Unreachable.class).withPropertyValues(SHORT_TTL).run(context -> {
            await().atMost(Duration.ofSeconds(5)).until(() -> Objects.requireNonNull(
                    health(context, "default").getDetails().get("reason"), "a reason")
                    .toString().contains("has not answered since the start"));
            Health health = health(context, "default");
            assertThat(health.getStatus()).isEqualTo(Status.UNKNOWN);
            assertThat(Objects.requireNonNull(health.getDetails().get("reason"), "a reason").toString())
                    .contains("hoplock.health.down-on-store-outage=false");
        });
    }

    @Test
    void healthIsDownWhenTheStoreNeverAnswersAndOutagesCountAsDown() {
        runner.withUserConfiguration(Unreachable.class).withPropertyValues(SHORT_TTL)
                .withPropertyValues("hoplock.health.down-on-store-outage=true").run(context -> {
            assertThat(health(context, "default").getStatus()).isIn(Status.UNKNOWN, Status.DOWN);
            await().atMost(Duration.ofSeconds(5)).until(() -> health(context, "default").getStatus().equals(Status.DOWN));
            assertThat(health(context, "default").getDetails()).containsEntry("role", "follower")
                    .containsEntry("lastError", "read failed: test store is unreachable")
                    .hasEntrySatisfying("reason", reason -> assertThat(reason.toString())
                            .contains("has not answered since the start"));
        });
    }

    @Test
    void healthGoesDownOneTtlAfterTheStoreStopsAnsweringWhenOutagesCountAsDown() {
        runner.withUserConfiguration(Reachable.class).withPropertyValues(SHORT_TTL)
                .withPropertyValues("hoplock.health.down-on-store-outage=true").run(context -> {
            Elector elector = awaitLeader(context);
            assertThat(health(context, "default").getStatus()).isEqualTo(Status.UP);
            context.getBean(SwitchableBackend.class).setUnreachable(true);
            await().atMost(Duration.ofSeconds(5)).until(() -> health(context, "default").getStatus().equals(Status.DOWN));
            assertThat(elector.isLeader()).as("the leader fenced itself: %s", elector.status()).isFalse();
            assertThat(Objects.requireNonNull(health(context, "default").getDetails().get("reason"), "a reason")
                    .toString())
                    .contains("has not answered for", "longer than the TTL (1s)");
            context.getBean(SwitchableBackend.class).setUnreachable(false);
            await().atMost(Duration.ofSeconds(5)).until(() -> health(context, "default").getStatus().equals(Status.UP));
        });
    }

    @Test
    void healthContributorFollowsItsConditions() {
        runner.withPropertyValues("management.health.hoplock.enabled=false").run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean("hoplockHealthContributor"));
        runner.withClassLoader(new FilteredClassLoader("org.springframework.boot.health")).run(context ->
                assertThat(context).hasNotFailed().hasSingleBean(HoplockElections.class)
                        .doesNotHaveBean("hoplockHealthContributor"));
        runner.withPropertyValues("hoplock.elections.a.ttl=3s", "hoplock.elections.b.ttl=3s").run(context -> {
            CompositeHealthContributor composite = context.getBean("hoplockHealthContributor",
                    CompositeHealthContributor.class);
            assertThat(composite.stream().map(c -> c.name())).containsExactly("a", "b");
        });
    }

    // ------------------------------------------------------------------ endpoint

    @Test
    void theEndpointIsReadOnlyByDefault() {
        runner.run(context -> assertThat(context).doesNotHaveBean(HoplockEndpoint.class));
        runner.withPropertyValues("management.endpoints.web.exposure.include=hoplock").run(context -> {
            assertThat(context).hasSingleBean(HoplockEndpoint.class);
            assertThat(new PropertiesEndpointAccessResolver(context.getEnvironment())
                    .accessFor(EndpointId.of("hoplock"), HoplockEndpoint.class.getAnnotation(Endpoint.class)
                            .defaultAccess()))
                    .as("the step-down needs management.endpoint.hoplock.access=unrestricted")
                    .isEqualTo(Access.READ_ONLY);
            awaitLeader(context);
            HoplockEndpoint endpoint = context.getBean(HoplockEndpoint.class);
            ElectionDescriptor state = Objects.requireNonNull(endpoint.elections().get("default"),
                    "the default election");
            assertThat(state.leader()).isTrue();
            assertThat(state.role()).isEqualTo("leader");
            assertThat(state.owner()).isEqualTo("me");
            assertThat(state.holder()).isEqualTo("me");
            assertThat(state.generation()).isEqualTo(1L);
            assertThat(state.ttl()).isEqualTo("3s");
            assertThat(state.backend()).isEqualTo("memory");
            assertThat(endpoint.election("default").getStatus()).isEqualTo(200);
            assertThat(endpoint.election("default").getBody()).isInstanceOf(ElectionDescriptor.class);
            assertNoSuchElection(endpoint.election("nope"), "nope");
        });
    }

    @Test
    void stepDownOperationWorksWhenAccessIsUnrestricted() {
        // Upper case: the runner has no relaxed enum conversion (a real application accepts "unrestricted").
        runner.withPropertyValues("management.endpoints.web.exposure.include=hoplock",
                "management.endpoint.hoplock.access=UNRESTRICTED").run(context -> {
                    assertThat(new PropertiesEndpointAccessResolver(context.getEnvironment()).accessFor(EndpointId.of("hoplock"), Access.READ_ONLY))
                            .isEqualTo(Access.UNRESTRICTED);
                    Elector elector = awaitLeader(context);
                    HoplockEndpoint endpoint = context.getBean(HoplockEndpoint.class);
                    WebEndpointResponse<Object> first = endpoint.stepDown("default");
                    assertThat(first.getStatus()).isEqualTo(200);
                    assertThat(((HoplockEndpoint.StepDownResult) Objects.requireNonNull(first.getBody(), "a body"))
                            .steppedDown())
                            .isTrue();
                    assertThat(elector.isLeader()).isFalse();
                    assertThat(((HoplockEndpoint.StepDownResult) Objects.requireNonNull(
                            endpoint.stepDown("default").getBody(), "a body"))
                            .steppedDown()).isFalse();
                    assertNoSuchElection(endpoint.stepDown("nope"), "nope");
                    assertNoSuchElection(endpoint.election("nope"), "nope");
                });
    }

    private static void assertNoSuchElection(WebEndpointResponse<Object> response, String name) {
        assertThat(response.getStatus()).isEqualTo(404);
        assertThat(response.getBody()).isInstanceOfSatisfying(HoplockEndpoint.NoSuchElection.class, body -> {
            assertThat(body.election()).isEqualTo(name);
            assertThat(body.elections()).containsExactly("default");
            assertThat(body.message()).contains("'" + name + "'", "[default]");
        });
    }

    // ------------------------------------------------------------------ events

    @Test
    void leadershipEventsArePublished() {
        runner.withUserConfiguration(EventRecorder.class).run(context -> {
            Elector elector = awaitLeader(context);
            List<ElectionApplicationEvent> events = context.getBean(EventRecorder.class).events;
            await().atMost(Duration.ofSeconds(5)).until(() -> events.stream()
                    .anyMatch(LeadershipAcquiredEvent.class::isInstance));
            LeadershipAcquiredEvent acquired = events.stream().filter(LeadershipAcquiredEvent.class::isInstance)
                    .map(LeadershipAcquiredEvent.class::cast).findFirst().orElseThrow();
            assertThat(acquired.election()).isEqualTo("default");
            assertThat(acquired.lease().owner()).isEqualTo("me");
            assertThat(acquired.elector()).isSameAs(elector);
            assertThat(events).anyMatch(e -> e instanceof LeaderObservedEvent observed
                    && observed.holder().map(h -> h.owner().equals("me")).orElse(false));
            elector.stepDown();
            await().atMost(Duration.ofSeconds(5)).until(() -> events.stream()
                    .anyMatch(e -> e instanceof LeadershipLostEvent lost && lost.cause() == LossCause.STEPPED_DOWN
                            && lost.lease().generation() == acquired.lease().generation()));
        });
    }

    // ------------------------------------------------------------------ helpers

    static Elector awaitLeader(AssertableApplicationContext context) {
        assertThat(context).hasNotFailed();
        Elector elector = context.getBean(HoplockElections.class).getDefault();
        await().atMost(Duration.ofSeconds(5)).until(elector::isLeader);
        return elector;
    }

    static Health health(AssertableApplicationContext context, String election) {
        CompositeHealthContributor composite = context.getBean("hoplockHealthContributor",
                CompositeHealthContributor.class);
        HealthIndicator indicator = (HealthIndicator) Objects.requireNonNull(composite.getContributor(election),
                "a contributor per election");
        return Objects.requireNonNull(indicator.health(), "an indicator answers");
    }

    @Configuration(proxyBeanMethods = false)
    static class Unreachable {
        @Bean
        SwitchableBackend backend() {
            return new SwitchableBackend(true);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Reachable {
        @Bean
        SwitchableBackend backend() {
            return new SwitchableBackend(false);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class EventRecorder implements ApplicationListener<ElectionApplicationEvent> {
        final List<ElectionApplicationEvent> events = new CopyOnWriteArrayList<>();

        @Override
        public void onApplicationEvent(ElectionApplicationEvent event) {
            events.add(event);
        }
    }
}
