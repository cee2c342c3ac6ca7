package dev.hoplock.bench.gate;

import dev.hoplock.bench.common.Initializer;
import dev.hoplock.core.election.Elector;
import dev.hoplock.spring.leader.HoplockElections;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.concurrent.TimeUnit;

/**
 * The cost of the {@code @LeaderOnly} gate per call: the same one-line method called through a Spring bean without
 * the annotation ({@link #plain}), with it on the leader ({@link #gatedOnLeader}: the method runs) and with it on a
 * follower ({@link #gatedOnFollower}: the call is skipped and returns null), and through a proxy whose only advisor
 * does nothing but proceed ({@link #noopAdvised}: what any annotation-driven Spring advice costs, the floor the gate is
 * measured against), and through a proxy whose only advisor is the minimal correct gate ({@link #minimalScopeOnLeader}:
 * a scope of the election opened and closed around the call, nothing else; the leader's floor). Two Spring Boot
 * contexts in the fork
 * share one in-memory store: the first leads, the second follows. TTL 30 s (the default): no renewal during a
 * measurement iteration is likely, and none of the calls touches the store anyway.
 *
 * <p>Baselines in the same run, for what the leader's gate itself costs: {@link #isLeaderOnLeader} calls
 * {@link Elector#isLeader()} alone (volatile reads, the monotonic and the wall clock, compared with the term's two
 * deadlines); {@link #clockMonotonic} reads {@code System.nanoTime()} alone, the only clock the gate read before the
 * wall deadline was added; {@link #clockMonotonicAndWall} reads {@code System.nanoTime()} and
 * {@code System.currentTimeMillis()}, the clocks it reads now. The difference of the last two is what the wall
 * deadline adds per gate check.
 *
 * <p>{@link #observations}: {@code absent}, the contexts have no {@code ObservationRegistry} (the gate's path as
 * before traces, issue 23: with {@code -prof gc} its allocation per call must not change); {@code present}, each
 * context has a registry with one handler that does nothing, so that every call that runs is observed (what an
 * application with a tracer pays for hoplock's observation, its own handlers' work aside).
 *
 * <p>Run by {@code benchmarks/run.sh} through {@code org.openjdk.jmh.Main}; the annotations below are the defaults
 * that its command line overrides.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(4)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class GateCostBenchmark {

    private ConfigurableApplicationContext leaderContext;
    private ConfigurableApplicationContext followerContext;
    private GateApp.PlainWork plain;
    private GateApp.NoopAdvisedWork noopAdvised;
    private GateApp.MinimalScopeWork minimalScope;
    private GateApp.GatedWork gatedLeader;
    private GateApp.GatedWork gatedFollower;
    private Elector leader;
    private String input = "job";

    /** Whether the contexts have an {@code ObservationRegistry} that observes. */
    @Param({"absent", "present"})
    public String observations = "absent";

    @Setup(Level.Trial)
    @Initializer
    public void start() throws InterruptedException {
        leaderContext = context("leader");
        leader = leaderContext.getBean(HoplockElections.class).getDefault();
        await(leader::isLeader, "the first context to lead");
        followerContext = context("follower");
        Elector follower = followerContext.getBean(HoplockElections.class).getDefault();
        await(() -> follower.holder().isPresent(), "the second context to see the leader");
        gatedLeader = leaderContext.getBean(GateApp.GatedWork.class);
        plain = leaderContext.getBean(GateApp.PlainWork.class);
        noopAdvised = leaderContext.getBean(GateApp.NoopAdvisedWork.class);
        minimalScope = leaderContext.getBean(GateApp.MinimalScopeWork.class);
        if (!AopUtils.isAopProxy(noopAdvised) || !AopUtils.isAopProxy(gatedLeader) || !AopUtils.isAopProxy(minimalScope)
                || AopUtils.isCglibProxy(noopAdvised) != AopUtils.isCglibProxy(gatedLeader)
                || AopUtils.isCglibProxy(minimalScope) != AopUtils.isCglibProxy(gatedLeader)) {
            throw new IllegalStateException("the no-op advised, minimal gate and gated beans must be proxied alike");
        }
        if (minimalScope.work(input) == null) {
            throw new IllegalStateException("the minimal gate must run the method on the leader");
        }
        gatedFollower = followerContext.getBean(GateApp.GatedWork.class);
        if (gatedLeader.work(input) == null || gatedFollower.work(input) != null || follower.isLeader()) {
            throw new IllegalStateException("the leader must run the method and the follower skip it");
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (gatedFollower != null && gatedFollower.work(input) != null) {
            throw new IllegalStateException("the follower ran the method: it became leader during the run");
        }
        followerContext.close();
        leaderContext.close();
    }

    @Benchmark
    public String plain() {
        return plain.work(input);
    }

    @Benchmark
    public String noopAdvised() {
        return noopAdvised.work(input);
    }

    @Benchmark
    public String minimalScopeOnLeader() {
        return minimalScope.work(input);
    }

    @Benchmark
    public String gatedOnLeader() {
        return gatedLeader.work(input);
    }

    @Benchmark
    public String gatedOnFollower() {
        return gatedFollower.work(input);
    }

    @Benchmark
    public boolean isLeaderOnLeader() {
        return leader.isLeader();
    }

    @Benchmark
    public long clockMonotonic() {
        return System.nanoTime();
    }

    @Benchmark
    public long clockMonotonicAndWall() {
        return System.nanoTime() + System.currentTimeMillis();
    }

    private ConfigurableApplicationContext context(String owner) {
        SpringApplicationBuilder builder = new SpringApplicationBuilder(GateApp.class);
        if ("present".equals(observations)) {
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(context -> true);
            builder.initializers(context -> context.getBeanFactory().registerSingleton("observationRegistry",
                    registry));
        }
        return builder
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .properties("hoplock.owner=" + owner, "hoplock.ttl=30s", "logging.level.root=WARN",
                        "spring.application.name=gate-" + owner)
                .run();
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out waiting for " + what);
            }
            Thread.sleep(10);
        }
    }
}
