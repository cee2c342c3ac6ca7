package dev.hoplock.spring.observation;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.NamedLocks;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.spring.leader.BackendDecorator;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.leader.LeaderOnlyAdvisor;
import dev.hoplock.spring.leader.LeaderOnlyAttributeSource;
import dev.hoplock.spring.leader.OnNonLeader;
import dev.hoplock.spring.lock.WhenLockHeld;
import dev.hoplock.spring.lock.WithLock;
import dev.hoplock.spring.lock.WithLockAdvisor;
import dev.hoplock.spring.lock.WithLockAttributeSource;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.autoproxy.DefaultAdvisorAutoProxyCreator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The gates' observations in a plain Spring context: a {@code @Scheduled @LeaderOnly} call that ran is a
 * {@code hoplock.leader-only} observation, the child of Spring's own {@code tasks.scheduled.execution}; a skipped call
 * is only an event on the caller's observation; a {@code @WithLock} call is a {@code hoplock.with-lock} observation
 * with a {@code hoplock.with-lock.hold} child, or, refused, one whose outcome says why; the terms of the lease and of
 * the lock are {@code hoplock.lease} observations; and without a registry nothing is observed.
 */
class GateObservationsTest {

    /** One store for every context of a test, as S3 would be for two processes. */
    private static final InMemoryBackend STORE = new InMemoryBackend();

    private final List<AnnotationConfigApplicationContext> contexts = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeAll() {
        contexts.forEach(AnnotationConfigApplicationContext::close);
    }

    private AnnotationConfigApplicationContext start(Class<?> configuration, String owner,
            @Nullable ObservationRegistry registry) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.registerBean("owner", String.class, () -> owner);
        if (registry != null) {
            context.registerBean(ObservationRegistry.class, () -> registry);
        }
        context.register(configuration);
        context.refresh();
        contexts.add(context);
        return context;
    }

    @Test
    void aScheduledLeaderOnlyCallIsAChildOfSpringsScheduledObservationAndTheTermIsALease() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        AnnotationConfigApplicationContext context = start(ScheduledApp.class, "scheduled-" + System.nanoTime(),
                registry);
        ScheduledJob job = context.getBean(ScheduledJob.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> job.runs() >= 2);

        assertThat(registry).hasObservationWithNameEqualTo(HoplockObservations.LEADER_ONLY).that()
                .hasLowCardinalityKeyValue("election", "default")
                .hasLowCardinalityKeyValue("method", "ScheduledJob.everyFewMillis")
                .hasContextualNameEqualTo("leader-only ScheduledJob.everyFewMillis")
                .hasParentObservationContextMatching(parent -> "tasks.scheduled.execution".equals(parent.getName()));
        assertThat(registry).hasAnObservation(store -> store.hasNameEqualTo(HoplockObservations.STORE_REQUEST)
                .hasLowCardinalityKeyValue("primitive", "election").hasLowCardinalityKeyValue("store", "memory")
                .hasLowCardinalityKeyValue("operation", "write").hasLowCardinalityKeyValue("outcome", "applied"));
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(registry)
                .hasObservationWithNameEqualTo(HoplockObservations.LEASE).that()
                .hasLowCardinalityKeyValue("primitive", "election")
                .hasLowCardinalityKeyValue("name", "default")
                .hasLowCardinalityKeyValue("acquisition", "free")
                .hasHighCardinalityKeyValue("generation", "1")
                .doesNotHaveParentObservation());

        // As the starter's lifecycle does at shutdown: the electors stop before the beans are destroyed.
        context.getBean(HoplockElections.class).close();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(registry)
                .hasObservationWithNameEqualTo(HoplockObservations.LEASE).that()
                .hasLowCardinalityKeyValue("outcome", "released")
                .hasLowCardinalityKeyValue("cause", "stopped")
                .hasBeenStopped());
    }

    @Test
    void aSkippedCallIsNoObservationButAnEventOnTheCallersObservation() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        List<String> events = new CopyOnWriteArrayList<>();
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public void onEvent(Observation.Event event, Observation.Context context) {
                events.add(context.getName() + ":" + event.getName());
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
        String owner = "follower-" + System.nanoTime();
        AnnotationConfigApplicationContext context = start(FollowerApp.class, owner, registry);
        GatedJob job = context.getBean(GatedJob.class);

        Integer answer = Observation.createNotStarted("caller", registry).observe(job::work);

        assertThat(answer).as("never elected: skipped").isNull();
        assertThat(registry).hasNumberOfObservationsWithNameEqualTo(HoplockObservations.LEADER_ONLY, 0);
        assertThat(events).containsExactly("caller:hoplock.leader-only.skipped");
    }

    /**
     * Review finding: an observation handler that throws when the gate's observation starts must not leave the leader's
     * scope open (the term would never drain, and a close would wait out its release timeout and keep the lease).
     */
    @Test
    void aHandlerThatThrowsAtTheStartLeavesNoScopeOpenSoTheCloseReleasesAtOnce() throws Exception {
        TestObservationRegistry registry = TestObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public void onStart(Observation.Context context) {
                if (HoplockObservations.LEADER_ONLY.equals(context.getName())) {
                    throw new IllegalStateException("planted handler failure");
                }
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
        AnnotationConfigApplicationContext context = start(LeaderApp.class, "leader-" + System.nanoTime(), registry);
        Elector elector = context.getBean(HoplockElections.class).getDefault();
        await().atMost(Duration.ofSeconds(10)).until(elector::isLeader);
        GatedJob job = context.getBean(GatedJob.class);

        assertThatThrownBy(job::work).hasMessageContaining("planted handler failure");

        elector.closeAsync().get(2, java.util.concurrent.TimeUnit.SECONDS);
        LeaseRecord stored = LeaseRecordCodec.decode(STORE.read("observed-" + elector.owner(), Duration.ofSeconds(1))
                .orElseThrow().content());
        assertThat(stored.isReleased()).as("released at the close: no scope was left open").isTrue();
    }

    @Test
    void aWithLockCallIsAnObservationWithAHoldChildAndARefusedOneSaysWhy() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        AnnotationConfigApplicationContext context = start(LockApp.class, "locker-" + System.nanoTime(), registry);
        LockedJob job = context.getBean(LockedJob.class);

        assertThat(Observation.createNotStarted("caller", registry).observe(job::export)).isEqualTo(1);

        assertThat(registry).hasObservationWithNameEqualTo(HoplockObservations.WITH_LOCK).that()
                .hasLowCardinalityKeyValue("method", "LockedJob.export")
                .hasLowCardinalityKeyValue("outcome", "ran")
                .hasLowCardinalityKeyValue("lost", "false")
                .hasParentObservationContextMatching(parent -> "caller".equals(parent.getName()))
                .hasBeenStopped();
        assertThat(registry).hasObservationWithNameEqualTo(HoplockObservations.WITH_LOCK_HOLD).that()
                .hasLowCardinalityKeyValue("lost", "false")
                .hasParentObservationContextMatching(parent -> HoplockObservations.WITH_LOCK.equals(parent.getName()))
                .hasBeenStopped();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(registry)
                .hasObservationWithNameEqualTo(HoplockObservations.LEASE).that()
                .hasLowCardinalityKeyValue("primitive", "lock")
                .hasLowCardinalityKeyValue("name", "locks")
                .hasLowCardinalityKeyValue("outcome", "released")
                .hasBeenStopped());

        // Another owner holds the lock: the call asks the store, is refused, and says so.
        NamedLocks other = NamedLocks.builder(STORE).owner("other-" + System.nanoTime()).build();
        try {
            assertThat(other.tryAcquire("nightly-export", Duration.ofSeconds(30)))
                    .isInstanceOf(AcquireResult.Acquired.class);
            registry.clear();
            assertThat(job.export()).isNull();
            assertThat(registry).hasObservationWithNameEqualTo(HoplockObservations.WITH_LOCK).that()
                    .hasLowCardinalityKeyValue("outcome", "held_elsewhere")
                    .hasLowCardinalityKeyValue("lost", "false");
            assertThat(registry).hasNumberOfObservationsWithNameEqualTo(HoplockObservations.WITH_LOCK_HOLD, 0);
        } finally {
            other.close();
        }
        assertThat(registry).hasHandledContextsThatSatisfy(all -> assertThat(all).allSatisfy(observed ->
                assertThat(observed.getAllKeyValues().stream().map(keyValue -> keyValue.getValue()))
                        .noneMatch(value -> value.contains("nightly-export"))));
    }

    @Test
    void withoutARegistryNothingIsObservedAndTheGatesWorkAsBefore() {
        AnnotationConfigApplicationContext context = start(LockApp.class, "plain-" + System.nanoTime(), null);
        assertThat(context.getBean(LockedJob.class).export()).isEqualTo(1);
        assertThat(context.getBeansOfType(LeaseObservations.class)).isEmpty();
    }

    /** What every test context has: the elections over the shared store, the proxy creator, the gates. */
    @Configuration(proxyBeanMethods = false)
    static class Base {

        @Bean(destroyMethod = "close")
        HoplockElections elections(String owner, ObjectProvider<ObservationRegistry> registry) {
            Backend store = registry.getIfAvailable() == null ? STORE
                    : new ObservedBackend(STORE, registry.getObject(), BackendDecorator.Primitive.ELECTION, "default");
            Elector elector = Elector.builder(store, "observed-" + owner).owner(owner).ttl(Duration.ofSeconds(3))
                    .build();
            return new HoplockElections(Map.of("default", elector), "default");
        }

        @Bean(destroyMethod = "close")
        NamedLocks locks(String owner) {
            return NamedLocks.builder(STORE).owner(owner).build();
        }

        @Bean
        @Nullable LeaseObservations leaseObservations(ObjectProvider<ObservationRegistry> registry,
                HoplockElections elections, NamedLocks locks) {
            ObservationRegistry observations = registry.getIfAvailable();
            return observations == null ? null : new LeaseObservations(observations, elections, locks);
        }

        @Bean
        static DefaultAdvisorAutoProxyCreator proxyCreator() {
            DefaultAdvisorAutoProxyCreator creator = new DefaultAdvisorAutoProxyCreator();
            creator.setProxyTargetClass(true);
            return creator;
        }

        @Bean
        static LeaderOnlyAdvisor leaderOnlyAdvisor(ObjectProvider<HoplockElections> elections,
                ObjectProvider<ObservationRegistry> registry) {
            return new LeaderOnlyAdvisor(new LeaderOnlyAttributeSource(OnNonLeader.SKIP, false), elections::getObject,
                    List::of, () -> null, registry::getIfAvailable, 0);
        }

        @Bean
        static WithLockAdvisor withLockAdvisor(ObjectProvider<NamedLocks> locks,
                ObjectProvider<ObservationRegistry> registry) {
            return new WithLockAdvisor(new WithLockAttributeSource(WhenLockHeld.SKIP, null), locks::getObject,
                    List::of, java.util.Optional::empty, registry::getIfAvailable, 0);
        }
    }

    /** The elector started, a scheduled job, and Spring's scheduler observing its tasks. */
    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    static class ScheduledApp extends Base implements SchedulingConfigurer {

        private final ObservationRegistry registry;

        ScheduledApp(ObservationRegistry registry) {
            this.registry = registry;
        }

        @Override
        public void configureTasks(ScheduledTaskRegistrar registrar) {
            registrar.setObservationRegistry(registry);
        }

        @Bean
        ScheduledJob scheduledJob(HoplockElections elections, ObjectProvider<LeaseObservations> terms) {
            terms.getIfAvailable(); // subscribed before the elector starts, as the auto-configuration does
            elections.startAll();
            return new ScheduledJob();
        }
    }

    /** The elector never started: this instance never leads. */
    @Configuration(proxyBeanMethods = false)
    static class FollowerApp extends Base {
        @Bean
        GatedJob gatedJob() {
            return new GatedJob();
        }
    }

    /** The elector started: this instance leads (one instance per owner over the shared store). */
    @Configuration(proxyBeanMethods = false)
    static class LeaderApp extends Base {
        @Bean
        GatedJob gatedJob(HoplockElections elections) {
            elections.startAll();
            return new GatedJob();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class LockApp extends Base {
        @Bean
        LockedJob lockedJob() {
            return new LockedJob();
        }
    }

    public static class ScheduledJob {
        private final AtomicInteger runs = new AtomicInteger();

        public int runs() {
            return runs.get();
        }

        @Scheduled(fixedDelay = 20)
        @LeaderOnly
        public void everyFewMillis() {
            runs.incrementAndGet();
        }
    }

    public static class GatedJob {
        @LeaderOnly
        public @Nullable Integer work() {
            return 1;
        }
    }

    public static class LockedJob {
        private final AtomicInteger runs = new AtomicInteger();

        @WithLock(name = "nightly-export", lockAtMostFor = "30s")
        public @Nullable Integer export() {
            return runs.incrementAndGet();
        }
    }
}
