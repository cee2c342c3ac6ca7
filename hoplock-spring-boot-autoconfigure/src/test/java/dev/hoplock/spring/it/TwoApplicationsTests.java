package dev.hoplock.spring.it;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.Lease;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.it.DemoJobApplication.Execution;
import dev.hoplock.spring.leader.HoplockMeterBinder;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Two whole applications in one JVM, each with its own owner, competing for one election over the filesystem store:
 * exactly one runs the scheduled job at a time, metrics and health tell which, and a stopped leader releases the lease
 * so that the other takes over at its next poll instead of after expiry.
 */
@ExtendWith(OutputCaptureExtension.class)
class TwoApplicationsTests {

    private static final Duration POLL = Duration.ofMillis(100);
    /**
     * How long a closing leader waits for its leader work before it gives up the release. Well above what closing a
     * context takes on a loaded 2-core machine, so that a close that did not interrupt the work (it then waits this
     * long) is told apart from one that did, however slow the machine.
     */
    private static final Duration RELEASE_TIMEOUT = Duration.ofSeconds(5);

    @TempDir
    Path directory;

    private final List<ConfigurableApplicationContext> started = new ArrayList<>();

    @BeforeEach
    void reset() {
        DemoJobApplication.reset();
    }

    @AfterEach
    void closeAll() {
        started.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void exactlyOneRunsTheJobAndAStoppedLeaderHandsOverThroughTheRelease() throws Exception {
        ConfigurableApplicationContext a = start("app-a");
        Elector electorA = elector(a);
        await().atMost(Duration.ofSeconds(10)).until(electorA::isLeader);
        ConfigurableApplicationContext b = start("app-b");
        Elector electorB = elector(b);
        await().atMost(Duration.ofSeconds(10)).until(() -> electorB.holder().isPresent());

        await().atMost(Duration.ofSeconds(10)).until(() -> DemoJobApplication.of("app-a").size() >= 10);
        assertThat(DemoJobApplication.of("app-b")).as("the follower never ran the job").isEmpty();
        // A leader whose renewal answers too late (a loaded machine) ends its term and, still holding the record,
        // begins a new one at a higher generation (rule 1). Each run carries the generation of the term it ran
        // under: a's runs rise, up to the term a leads under now, and the follower comes to see that generation.
        long generationA = electorA.currentLease().orElseThrow().generation();
        assertThat(DemoJobApplication.of("app-a")).extracting(Execution::generation).isSorted()
                .allSatisfy(generation -> assertThat(generation).isBetween(1L, generationA));
        await().atMost(Duration.ofSeconds(10)).until(() -> gauge(b, HoplockMeterBinder.GENERATION)
                == electorA.currentLease().map(Lease::generation).orElse(-1L));

        assertThat(gauge(a, HoplockMeterBinder.LEADER)).isEqualTo(1.0);
        assertThat(gauge(b, HoplockMeterBinder.LEADER)).isEqualTo(0.0);
        Health healthA = health(a);
        Health healthB = health(b);
        assertThat(healthA.getStatus()).isEqualTo(Status.UP);
        assertThat(healthA.getDetails()).containsEntry("role", "leader").containsEntry("holder", "app-a");
        assertThat(healthB.getStatus()).isEqualTo(Status.UP);
        assertThat(healthB.getDetails()).containsEntry("role", "follower").containsEntry("holder", "app-a")
                .containsEntry("owner", "app-b");

        Handover handover = Handover.watch(electorA, electorB);
        a.close();
        long generationB = handover.assertReleasedAndTakenOverBeforeExpiry().lease().generation();
        assertThat(generationB).isGreaterThan(generationA);

        await().atMost(Duration.ofSeconds(10)).until(() -> DemoJobApplication.of("app-b").size() >= 5);
        assertThat(DemoJobApplication.of("app-b")).extracting(Execution::generation).isSorted()
                .allSatisfy(generation -> assertThat(generation).isGreaterThanOrEqualTo(generationB));
        assertNoOverlap();
        assertThat(gauge(b, HoplockMeterBinder.LEADER)).isEqualTo(1.0);
        assertThat(health(b).getDetails()).containsEntry("role", "leader").containsEntry("holder", "app-b");
    }

    @Test
    void shutdownInterruptsLeaderWorkThenReleasesTheLease() throws Exception {
        DemoJobApplication.blockingOwner = "app-a";
        ConfigurableApplicationContext a = start("app-a");
        Elector electorA = elector(a);
        await().atMost(Duration.ofSeconds(10)).until(electorA::isLeader);
        ConfigurableApplicationContext b = start("app-b");
        Elector electorB = elector(b);
        assertThat(DemoJobApplication.blocking.await(10, TimeUnit.SECONDS)).as("the leader's job is blocking").isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> electorB.holder().isPresent());
        assertThat(electorB.isLeader()).isFalse();

        Handover handover = Handover.watch(electorA, electorB);
        long closing = System.nanoTime();
        a.close();
        Duration closeTook = Duration.ofNanos(System.nanoTime() - closing);
        assertThat(closeTook).as("leader work stopped at once, not after the release timeout")
                .isLessThan(RELEASE_TIMEOUT);
        assertThat(DemoJobApplication.of("app-a")).hasSize(1).allSatisfy(e -> assertThat(e.interrupted()).isTrue());
        handover.assertReleasedAndTakenOverBeforeExpiry();
        await().atMost(Duration.ofSeconds(10)).until(() -> DemoJobApplication.of("app-b").size() >= 3);
        assertNoOverlap();
    }

    @Test
    void aBadPropertyStopsTheStartWithTheFailureAnalysis(CapturedOutput output) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(DemoJobApplication.class)
                .web(WebApplicationType.NONE)
                .properties("hoplock.backend=filesystem", "hoplock.filesystem.directory=" + directory,
                        "hoplock.owner=bad", "hoplock.ttl=10s", "hoplock.renew=20s")
                .run()).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("Invalid hoplock setting hoplock.renew (election 'default'): ")
                .contains("must be shorter than ttl")
                .contains("Set hoplock.renew below the TTL");
    }

    private ConfigurableApplicationContext start(String owner) {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(DemoJobApplication.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off",
                        "hoplock.backend=filesystem", "hoplock.filesystem.directory=" + directory,
                        "hoplock.owner=" + owner, "hoplock.ttl=1500ms", "hoplock.renew=500ms",
                        "hoplock.poll=" + POLL.toMillis() + "ms",
                        "hoplock.release-timeout=" + RELEASE_TIMEOUT.toMillis() + "ms",
                        "logging.level.root=WARN", "logging.level.dev.hoplock=INFO")
                .run();
        started.add(context);
        return context;
    }

    private static Elector elector(ConfigurableApplicationContext context) {
        return context.getBean(HoplockElections.class).getDefault();
    }

    private static double gauge(ConfigurableApplicationContext context, String name) {
        return context.getBean(MeterRegistry.class).get(name).tag("election", "default").gauge().value();
    }

    private static Health health(ConfigurableApplicationContext context) {
        CompositeHealthContributor composite = context.getBean("hoplockHealthContributor",
                CompositeHealthContributor.class);
        return ((HealthIndicator) composite.getContributor("default")).health();
    }

    /** No two runs by different owners overlap in time, and a run of another owner has a higher generation. */
    private static void assertNoOverlap() {
        List<Execution> all = DemoJobApplication.EXECUTIONS.stream()
                .sorted(Comparator.comparingLong(Execution::startNanos)).toList();
        for (int i = 1; i < all.size(); i++) {
            Execution previous = all.get(i - 1);
            Execution next = all.get(i);
            if (!previous.owner().equals(next.owner())) {
                assertThat(next.startNanos()).as("%s started before %s ended", next, previous)
                        .isGreaterThanOrEqualTo(previous.endNanos());
                assertThat(next.generation()).as("generation of %s after %s", next, previous)
                        .isGreaterThan(previous.generation());
            }
        }
    }
}
