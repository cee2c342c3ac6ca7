package dev.hoplock.spring.leader;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.LeaderScope;
import dev.hoplock.core.Lease;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLeaderOnlyAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockMetricsAutoConfiguration;
import dev.hoplock.spring.support.CountingBackend;
import dev.hoplock.spring.support.Failures;
import dev.hoplock.spring.support.Records;
import io.micrometer.core.instrument.MeterRegistry;
import kotlin.coroutines.Continuation;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.springframework.aop.Advisor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The {@code @LeaderOnly} gate: what a leader and a follower see, return values, throw mode, start-up refusals, the
 * lease inside the call, interruption, advisor order, and proof that the gate makes no store request.
 */
class LeaderOnlyTests {

    /** Long timing, so that no background request happens while a test counts requests. */
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, HoplockAutoConfiguration.class,
                    HoplockLeaderOnlyAutoConfiguration.class, HoplockMetricsAutoConfiguration.class))
            .withPropertyValues("hoplock.ttl=60s", "hoplock.renew=20s", "hoplock.poll=20s", "hoplock.owner=me");

    // ------------------------------------------------------------------ leader and follower

    @Test
    void theLeaderRunsEveryMethodAndSeesItsLease() {
        leader().run(context -> {
            GatedService service = context.getBean(GatedService.class);
            Elector elector = awaitLeader(context);
            assertThat(service.optional()).contains("ran");
            assertThat(service.list()).containsExactly("ran");
            assertThat(service.string()).isEqualTo("ran");
            assertThat(service.mustLead()).isEqualTo("ran");
            assertThat(service.primitiveThrows()).isEqualTo(42);
            Lease inside = service.lease();
            assertThat(inside.generation()).isEqualTo(elector.currentLease().orElseThrow().generation());
            assertThat(inside.owner()).isEqualTo("me");
            assertThat(LeaderContextHolder.current()).as("outside the call").isEmpty();
            assertThat(service.runs()).isEqualTo(5);
        });
    }

    @Test
    void aFollowerSkipsWithEmptyValuesAndCountsTheSkips() {
        follower().run(context -> {
            GatedService service = context.getBean(GatedService.class);
            awaitFollowerSawHolder(context);
            assertThat(service.optional()).isEmpty();
            assertThat(service.list()).isEmpty();
            assertThat(service.set()).isEmpty();
            assertThat(service.map()).isEmpty();
            assertThat(service.navigableMap()).isEmpty();
            assertThat(service.stream()).isEmpty();
            assertThat(service.array()).isEmpty();
            assertThat(service.future()).isCompletedWithValue(null);
            assertThat(service.string()).isNull();
            service.voidCall();
            assertThat(service.runs()).isEqualTo(0);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get(SkippedCallCounter.METER).tag("election", "default").tag("method",
                    "GatedService.optional").counter().count()).isEqualTo(1.0);
            assertThat(registry.get(SkippedCallCounter.METER).tag("election", "default").counters())
                    .as("one counter per skipped method").filteredOn(c -> c.count() > 0).hasSize(10);
            assertThat(registry.get(SkippedCallCounter.METER).tag("election", "default").tag("method",
                    "GatedService.blockUntilInterrupted").counter().count()).as("registered at start, never called").isZero();
        });
    }

    @Test
    void throwModeNamesTheElectionAndTheHolder() {
        follower().run(context -> {
            GatedService service = context.getBean(GatedService.class);
            awaitFollowerSawHolder(context);
            assertThatThrownBy(service::mustLead).isInstanceOf(NotLeaderException.class)
                    .hasMessageContaining("GatedService.mustLead()")
                    .hasMessageContaining("election 'default'")
                    .hasMessageContaining("(me)")
                    .hasMessageContaining("'someone-else' at generation 7")
                    .extracting(e -> ((NotLeaderException) e).election()).isEqualTo("default");
            assertThatThrownBy(service::primitiveThrows).isInstanceOf(NotLeaderException.class);
            assertThat(service.runs()).isEqualTo(0);
        });
    }

    @Test
    void thePropertyMakesThrowTheDefault() {
        follower().withPropertyValues("hoplock.leader-only.on-non-leader=throw").run(context -> {
            awaitFollowerSawHolder(context);
            assertThatThrownBy(context.getBean(GatedService.class)::string).isInstanceOf(NotLeaderException.class);
        });
    }

    @Test
    void theGateMakesNoStoreRequestOnLeaderOrFollower() {
        leader().run(context -> {
            GatedService service = context.getBean(GatedService.class);
            awaitLeader(context);
            CountingBackend backend = context.getBean(CountingBackend.class);
            long before = backend.requests();
            for (int i = 0; i < 1000; i++) {
                service.string();
            }
            assertThat(service.runs()).isEqualTo(1000);
            assertThat(backend.requests()).isEqualTo(before);
        });
        follower().run(context -> {
            GatedService service = context.getBean(GatedService.class);
            awaitFollowerSawHolder(context);
            CountingBackend backend = context.getBean(CountingBackend.class);
            long before = backend.requests();
            for (int i = 0; i < 1000; i++) {
                service.string();
            }
            assertThat(service.runs()).isEqualTo(0);
            assertThat(backend.requests()).isEqualTo(before);
            assertThat(context.getBean(MeterRegistry.class).get(SkippedCallCounter.METER)
                    .tag("method", "GatedService.string").counter().count()).isEqualTo(1000.0);
        });
    }

    // ------------------------------------------------------------------ interruption

    @Test
    void lossInterruptsTheCallAndTheInterruptDoesNotLeak() {
        leader().run(context -> {
            GatedService service = context.getBean(GatedService.class);
            Elector elector = awaitLeader(context);
            CountDownLatch entered = new CountDownLatch(1);
            AtomicBoolean flagAfterCall = new AtomicBoolean(true);
            CompletableFuture<String> result = CompletableFuture.supplyAsync(() -> {
                String outcome = service.blockUntilInterrupted(entered);
                flagAfterCall.set(Thread.currentThread().isInterrupted());
                return outcome;
            });
            assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(elector.stepDown()).isTrue();
            assertThat(result.get(5, TimeUnit.SECONDS)).isEqualTo("interrupted");
            assertThat(flagAfterCall).as("interrupt flag after the call").isFalse();
        });
    }

    @Test
    void interruptionCanBeSwitchedOff() {
        leader().run(context -> {
            GatedService service = context.getBean(GatedService.class);
            Elector elector = awaitLeader(context);
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CompletableFuture<String> result = CompletableFuture.supplyAsync(() -> {
                try {
                    return service.waitWithoutInterrupt(entered, release);
                } catch (InterruptedException e) {
                    return "threw InterruptedException";
                }
            });
            assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(elector.stepDown()).isTrue();
            assertThat(elector.isLeader()).isFalse();
            release.countDown();
            assertThat(result.get(5, TimeUnit.SECONDS)).isEqualTo("not leading");
        });
    }

    @Test
    void aNestedCallLeavesTheOuterCallsInterruptStanding() {
        leader().withUserConfiguration(NestedConfig.class).run(context -> {
            Elector elector = awaitLeader(context);
            Outer outer = context.getBean(Outer.class);
            Inner inner = context.getBean(Inner.class);
            AtomicBoolean flagAfterOuterCall = new AtomicBoolean(true);
            FutureTask<String> call = new FutureTask<>(() -> {
                String outcome = outer.callInnerThenWaitForInterrupt();
                flagAfterOuterCall.set(Thread.currentThread().isInterrupted());
                return outcome;
            });
            Thread caller = new Thread(call, "nested-gate-caller");
            caller.start();
            assertThat(inner.entered().await(5, TimeUnit.SECONDS)).isTrue();
            CompletableFuture.runAsync(elector::stepDown);
            assertThat(call.get(10, TimeUnit.SECONDS))
                    .as("the outer call, after the inner call returned").isEqualTo("interrupted");
            caller.join(5_000);
            assertThat(flagAfterOuterCall).as("interrupt flag after the outer call").isFalse();
        });
    }

    @Test
    void anInterruptTheCallerAlreadyHadIsLeftStanding() {
        leader().run(context -> {
            GatedService service = context.getBean(GatedService.class);
            Elector elector = awaitLeader(context);
            AtomicReference<LeaderScope> scope = new AtomicReference<>();
            Semaphore release = new Semaphore(0);
            AtomicBoolean flagAfterCall = new AtomicBoolean();
            Thread caller = new Thread(() -> {
                Thread.currentThread().interrupt(); // as ExecutorService.shutdownNow() does
                service.holdUninterruptibly(scope, release);
                flagAfterCall.set(Thread.currentThread().isInterrupted());
            }, "pre-interrupted-caller");
            caller.start();
            await().atMost(Duration.ofSeconds(5)).until(() -> scope.get() != null);
            CompletableFuture.runAsync(elector::stepDown);
            await().atMost(Duration.ofSeconds(5)).until(() -> Objects.requireNonNull(scope.get(), "a scope").wasLost());
            release.release();
            caller.join(5_000);
            assertThat(caller.isAlive()).isFalse();
            assertThat(flagAfterCall).as("the caller's own interrupt after the call").isTrue();
        });
    }

    // ------------------------------------------------------------------ start-up refusals

    @Test
    void aPrimitiveReturnWithSkipIsRefusedAtStartup() {
        leader().withUserConfiguration(PrimitiveConfig.class).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("bean 'primitive'",
                    "LeaderOnlyTests$PrimitiveSkip.count()", "returns int", "no value for a skipped call");
            assertThat(analysis.getAction()).contains("OnNonLeader.THROW", "Return void or an object type");
        });
    }

    @Test
    void aPrivateMethodIsRefusedAtStartup() {
        leader().withUserConfiguration(PrivateConfig.class).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("hidden()", "is private");
            assertThat(analysis.getAction()).contains("Make the method public");
        });
    }

    @Test
    void anUnknownElectionIsRefusedAtStartup() {
        leader().withUserConfiguration(UnknownElectionConfig.class).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("UnknownElection.work()", "no election 'nope'",
                    "configured: [default]");
        });
    }

    @Test
    void noNameWithSeveralElectionsAndNoDefaultIsRefusedAtStartup() {
        leader().withPropertyValues("hoplock.elections.a.ttl=60s", "hoplock.elections.b.ttl=60s").run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("none is named 'default'", "[a, b]");
        });
    }

    @Test
    void aMethodOutsideTheJdkProxyInterfaceIsRefusedAtStartup() {
        leader().withUserConfiguration(InterfaceConfig.class)
                .withPropertyValues("spring.aop.proxy-target-class=false").run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("extra()", "JDK proxy");
                    assertThat(analysis.getAction()).contains("spring.aop.proxy-target-class=true");
                });
    }

    @Test
    void reactiveMethodsAreGatedPerSubscriptionOnTheLeaderAndEmptyOnAFollower() {
        leader().withUserConfiguration(ReactiveConfig.class).run(context -> {
            Elector elector = awaitLeader(context);
            ReactiveJob job = context.getBean(ReactiveJob.class);
            long generation = elector.currentLease().orElseThrow().generation();
            assertThat(job.mono().block(Duration.ofSeconds(5))).isEqualTo("work under " + generation);
            assertThat(job.flux().collectList().block(Duration.ofSeconds(5))).containsExactly("work");
            assertThat(Mono.from(job.publisher()).block(Duration.ofSeconds(5))).isEqualTo("work");
        });
        follower().withUserConfiguration(ReactiveConfig.class).run(context -> {
            awaitFollowerSawHolder(context);
            ReactiveJob job = context.getBean(ReactiveJob.class);
            assertThat(job.mono().block(Duration.ofSeconds(5))).as("skipped: an empty Mono").isNull();
            assertThat(job.flux().collectList().block(Duration.ofSeconds(5))).isEmpty();
        });
    }

    @Test
    void kotlinSuspendFunctionsWithoutTheCoroutineBridgeAreRefusedAtStartupNamingWhatToAdd() {
        leader().withUserConfiguration(SuspendConfig.class).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("SuspendingJob.work(Continuation) is a Kotlin suspend"
                    + " function, and", "org.jetbrains.kotlinx:kotlinx-coroutines-reactor",
                    "so the gate cannot span the coroutine");
            assertThat(analysis.getAction()).contains("Add org.jetbrains.kotlinx:kotlinx-coroutines-reactor and"
                    + " org.jetbrains.kotlin:kotlin-reflect");
        });
    }

    // ------------------------------------------------------------------ scope of the annotation

    @Test
    void aClassAnnotationGatesPublicMethodsButNotObjectMethods() {
        follower().withUserConfiguration(ClassLevelConfig.class).run(context -> {
            awaitFollowerSawHolder(context);
            ClassLevel bean = context.getBean(ClassLevel.class);
            assertThat(bean.work()).isNull();
            assertThat(bean.toString()).isEqualTo("class-level");
        });
    }

    @Test
    void namedElectionsGateSeparately() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, HoplockAutoConfiguration.class,
                        HoplockLeaderOnlyAutoConfiguration.class))
                .withUserConfiguration(FollowerStore.class, NamedConfig.class)
                .withPropertyValues("hoplock.ttl=60s", "hoplock.renew=20s", "hoplock.poll=20s",
                        "hoplock.elections.default.ttl=60s", "hoplock.elections.reports.ttl=60s")
                .run(context -> {
                    HoplockElections elections = context.getBean(HoplockElections.class);
                    await().atMost(Duration.ofSeconds(5)).until(() -> elections.get("reports").isLeader()
                            && elections.get("default").holder().isPresent());
                    Named bean = context.getBean(Named.class);
                    assertThat(bean.reports()).isEqualTo("reports");
                    assertThat(bean.defaults()).isNull();
                });
    }

    // ------------------------------------------------------------------ advisor order and proxying

    @Test
    void byDefaultTheGateRunsOutsideLowestPrecedenceAdvisorsSuchAsTransactions() {
        follower().withUserConfiguration(RecordingAdvisorConfig.class).run(context -> {
            awaitFollowerSawHolder(context);
            context.getBean(GatedService.class).string();
            assertThat(RecordingAdvisorConfig.calls).as("the inner advisor never runs for a skipped call").hasValue(0);
        });
        leader().withUserConfiguration(RecordingAdvisorConfig.class).run(context -> {
            awaitLeader(context);
            context.getBean(GatedService.class).string();
            assertThat(RecordingAdvisorConfig.calls).hasValue(1);
            assertThat(RecordingAdvisorConfig.sawLease).as("the inner advisor runs inside the gate").isTrue();
        });
    }

    @Test
    void theAspectOrderPropertyMovesTheGateInside() {
        follower().withUserConfiguration(RecordingAdvisorConfig.class)
                .withPropertyValues("hoplock.aspect-order=200", "test.recording-order=100").run(context -> {
                    awaitFollowerSawHolder(context);
                    assertThat(context.getBean(LeaderOnlyAdvisor.class).getOrder()).isEqualTo(200);
                    context.getBean(GatedService.class).string();
                    assertThat(RecordingAdvisorConfig.calls).hasValue(1);
                });
    }

    @Test
    void worksWithoutAspectJ() {
        follower().withClassLoader(new FilteredClassLoader("org.aspectj")).run(context -> {
            awaitFollowerSawHolder(context);
            assertThat(context.getBean(GatedService.class).string()).isNull();
            assertThat(context.getBean(GatedService.class).runs()).isEqualTo(0);
        });
    }

    @Test
    void worksWhenBootsAutoProxyingIsOff() {
        follower().withPropertyValues("spring.aop.auto=false").run(context -> {
            awaitFollowerSawHolder(context);
            assertThat(context.getBean(GatedService.class).string()).isNull();
            assertThat(context.getBean(GatedService.class).runs()).isEqualTo(0);
        });
    }

    @Test
    void disabledLeavesMethodsUnproxied() {
        leader().withPropertyValues("hoplock.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(LeaderOnlyAdvisor.class);
            assertThat(context.getBean(GatedService.class).string()).isEqualTo("ran");
        });
    }

    // ------------------------------------------------------------------ helpers

    private ApplicationContextRunner leader() {
        return runner.withUserConfiguration(LeaderStore.class, ServiceConfig.class);
    }

    private ApplicationContextRunner follower() {
        return runner.withUserConfiguration(FollowerStore.class, ServiceConfig.class);
    }

    private static Elector awaitLeader(AssertableApplicationContext context) {
        assertThat(context).hasNotFailed();
        Elector elector = context.getBean(HoplockElections.class).getDefault();
        await().atMost(Duration.ofSeconds(5)).until(elector::isLeader);
        return elector;
    }

    private static void awaitFollowerSawHolder(AssertableApplicationContext context) {
        assertThat(context).hasNotFailed();
        Elector elector = context.getBean(HoplockElections.class).getDefault();
        await().atMost(Duration.ofSeconds(5)).until(() -> elector.holder().isPresent());
        assertThat(elector.holder().orElseThrow().owner()).isEqualTo("someone-else");
        assertThat(elector.isLeader()).isFalse();
    }

    @Configuration(proxyBeanMethods = false)
    static class LeaderStore {
        @Bean
        CountingBackend backend() {
            return new CountingBackend(new InMemoryBackend());
        }

        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    /** A store whose lease is held, for a minute, by an owner that does not exist. */
    @Configuration(proxyBeanMethods = false)
    static class FollowerStore {
        @Bean
        CountingBackend backend() {
            InMemoryBackend memory = new InMemoryBackend();
            Records.plantHeld(memory, "default", "someone-else", 7, Instant.now().plusSeconds(60));
            return new CountingBackend(memory);
        }

        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ServiceConfig {
        @Bean
        GatedService gatedService() {
            return new GatedService();
        }
    }

    static class PrimitiveSkip {
        @LeaderOnly
        public int count() {
            return 1;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class PrimitiveConfig {
        @Bean
        PrimitiveSkip primitive() {
            return new PrimitiveSkip();
        }
    }

    static class ReactiveJob {
        @LeaderOnly
        public Mono<String> mono() {
            return ReactiveLeaderContext.current().map(leader -> "work under " + leader.lease().generation());
        }

        @LeaderOnly
        public Flux<String> flux() {
            return Flux.just("work");
        }

        @LeaderOnly
        public Publisher<String> publisher() {
            return Mono.just("work");
        }

        /** Started, not deferred: stays allowed. */
        @LeaderOnly
        public CompletableFuture<String> future() {
            return CompletableFuture.completedFuture("work");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ReactiveConfig {
        @Bean
        ReactiveJob reactive() {
            return new ReactiveJob();
        }
    }

    /** What the Kotlin compiler makes of {@code @LeaderOnly suspend fun work(): String}. */
    static class SuspendingJob {
        @LeaderOnly
        public Object work(Continuation<? super String> continuation) {
            return "work";
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class SuspendConfig {
        @Bean
        SuspendingJob suspending() {
            return new SuspendingJob();
        }
    }

    static class PrivateMethod {
        @LeaderOnly
        private void hidden() {
        }

        void use() {
            hidden();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class PrivateConfig {
        @Bean
        PrivateMethod privateMethod() {
            return new PrivateMethod();
        }
    }

    static class UnknownElection {
        @LeaderOnly("nope")
        public void work() {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UnknownElectionConfig {
        @Bean
        UnknownElection unknownElection() {
            return new UnknownElection();
        }
    }

    public interface Job {
        void work();
    }

    static class JobWithExtra implements Job {
        @Override
        @LeaderOnly
        public void work() {
        }

        @LeaderOnly
        public String extra() {
            return "extra";
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class InterfaceConfig {
        @Bean
        Job job() {
            return new JobWithExtra();
        }
    }

    @LeaderOnly
    static class ClassLevel {
        public String work() {
            return "work";
        }

        @Override
        public String toString() {
            return "class-level";
        }

        @Override
        public int hashCode() {
            return 7;
        }

        @Override
        public boolean equals(Object other) {
            return other == this;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ClassLevelConfig {
        @Bean
        ClassLevel classLevel() {
            return new ClassLevel();
        }
    }

    static class Named {
        @LeaderOnly("reports")
        public String reports() {
            return "reports";
        }

        @LeaderOnly
        public String defaults() {
            return "default";
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NamedConfig {
        @Bean
        Named named() {
            return new Named();
        }
    }

    /** Calls {@link Inner} from inside its own gate and then waits for the interrupt its own term ending sends. */
    public static class Outer {
        private final Inner inner;

        public Outer(Inner inner) {
            this.inner = inner;
        }

        @LeaderOnly
        public String callInnerThenWaitForInterrupt() {
            inner.waitUntilBothScopesAreLost((LeaderScope) LeaderContextHolder.require());
            try {
                // Both scopes were told; the outer one's interrupt must still be pending.
                return new CountDownLatch(1).await(0, TimeUnit.SECONDS) ? "released" : "not interrupted";
            } catch (InterruptedException e) {
                return "interrupted";
            }
        }
    }

    /** Consumes its own interrupt and returns only once its scope and the enclosing one were both told of the loss. */
    public static class Inner {
        private final CountDownLatch entered = new CountDownLatch(1);

        /** Read through the proxy (a class-based proxy's own fields are empty). */
        public CountDownLatch entered() {
            return entered;
        }

        @LeaderOnly
        public void waitUntilBothScopesAreLost(LeaderScope outer) {
            LeaderScope own = (LeaderScope) LeaderContextHolder.require();
            entered.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                // consumed here, as most blocking code does
            }
            // Not Awaitility: the outer scope's interrupt may arrive while we wait, and must stay on the flag.
            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!(own.wasLost() && outer.wasLost())) {
                if (System.nanoTime() - giveUp > 0) {
                    throw new AssertionError("the scopes were not told of the loss within 5 s");
                }
                Thread.yield();
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NestedConfig {
        @Bean
        Inner inner() {
            return new Inner();
        }

        @Bean
        Outer outer(Inner inner) {
            return new Outer(inner);
        }
    }

    /**
     * An advisor around every @LeaderOnly method, at the order a transaction advisor has (lowest precedence) unless
     * {@code test.recording-order} says otherwise.
     */
    @Configuration(proxyBeanMethods = false)
    static class RecordingAdvisorConfig {
        static final AtomicInteger calls = new AtomicInteger();
        static final AtomicBoolean sawLease = new AtomicBoolean();

        @Bean
        static Advisor recordingAdvisor(Environment environment) {
            calls.set(0);
            sawLease.set(false);
            int order = environment.getProperty("test.recording-order", Integer.class, Ordered.LOWEST_PRECEDENCE);
            MethodInterceptor interceptor = invocation -> {
                calls.incrementAndGet();
                sawLease.set(LeaderContextHolder.currentLease().isPresent());
                return invocation.proceed();
            };
            DefaultPointcutAdvisor advisor = new DefaultPointcutAdvisor(
                    AnnotationMatchingPointcut.forMethodAnnotation(LeaderOnly.class), interceptor);
            advisor.setOrder(order);
            return advisor;
        }
    }

}
