package dev.hoplock.spring.it;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.LossCause;
import dev.hoplock.core.election.Role;
import dev.hoplock.core.backend.FilesystemBackend;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.actuate.ElectionDescriptor;
import dev.hoplock.spring.actuate.HoplockEndpoint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code hoplock.campaign-when}: whole applications (SpringApplication, so with Boot's readiness events) sharing one
 * filesystem store. With {@code ready} (the default) an application campaigns only while it accepts traffic: one
 * still warming up never leads, not even alone, and writes no claim; one refusing traffic steps down (through the
 * release: the other takes over before the lease would have expired) and stays out while the lease is free; accepting
 * traffic again campaigns again. With {@code started} readiness changes nothing.
 */
class ReadinessCandidacyTests {

    private static final Duration TTL = Duration.ofMillis(1500);

    @TempDir
    Path directory;

    private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();
    private final List<CompletableFuture<ConfigurableApplicationContext>> running = new ArrayList<>();

    @BeforeEach
    void reset() {
        DemoJobApplication.reset();
        WarmUp.reset();
    }

    @AfterEach
    void closeAll() throws Exception {
        WarmUp.reset();
        for (CompletableFuture<ConfigurableApplicationContext> run : running) {
            run.get(30, TimeUnit.SECONDS);
        }
        contexts.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void anApplicationWarmingUpNeverLeadsNotEvenAloneAndLeadsOnceReady() throws Exception {
        ConfigurableApplicationContext a = startWarmingUp("app-a", "hoplock.campaign-when=ready");
        Elector electorA = elector(a);

        await().during(TTL.multipliedBy(2)).atMost(TTL.multipliedBy(4)).until(() -> !electorA.isLeader());
        assertThat(storedRecord()).as("no claim was written while warming up").isEmpty();
        assertThat(DemoJobApplication.of("app-a")).as("no leader-only run").isEmpty();
        assertThat(electorA.status().role()).isEqualTo(Role.NEW);
        Health health = health(a);
        assertThat(health.getStatus()).isEqualTo(Status.UNKNOWN);
        assertThat(health.getDetails()).containsEntry("campaigning", false);
        assertThat((String) health.getDetails().get("notCampaigningBecause"))
                .contains("not ready yet", "ACCEPTING_TRAFFIC", "hoplock.act-when=ready");
        ElectionDescriptor shown = a.getBean(HoplockEndpoint.class).elections().get("default");
        assertThat(shown.campaigning()).isFalse();
        assertThat(shown.notCampaigningBecause()).contains("not ready yet");

        WarmUp.finish("app-a");
        await().atMost(Duration.ofSeconds(10)).until(electorA::isLeader);
        await().atMost(Duration.ofSeconds(10)).until(() -> !DemoJobApplication.of("app-a").isEmpty());
        assertThat(health(a).getDetails()).containsEntry("campaigning", true).doesNotContainKey("notCampaigningBecause");
    }

    @Test
    void refusingTrafficStepsDownStaysOutAndAcceptingTrafficCampaignsAgain() throws Exception {
        ConfigurableApplicationContext a = start("app-a", "hoplock.campaign-when=ready");
        Elector electorA = elector(a);
        await().atMost(Duration.ofSeconds(10)).until(electorA::isLeader);
        ConfigurableApplicationContext b = start("app-b", "hoplock.campaign-when=ready");
        Elector electorB = elector(b);
        await().atMost(Duration.ofSeconds(10)).until(() -> electorB.holder().isPresent());

        Handover handover = Handover.watch(electorA, electorB);
        AvailabilityChangeEvent.publish(a, ReadinessState.REFUSING_TRAFFIC);
        handover.assertReleasedAndTakenOverBeforeExpiry(LossCause.STEPPED_DOWN);
        assertThat(health(a).getDetails()).containsEntry("campaigning", false).containsEntry("role", "follower");
        assertThat((String) health(a).getDetails().get("notCampaigningBecause")).contains("REFUSING_TRAFFIC");

        // The lease becomes free (b shuts down and releases): a, still refusing traffic, does not take it.
        b.close();
        await().atMost(Duration.ofSeconds(10)).until(() -> storedRecord().map(LeaseRecord::isReleased).orElse(false));
        await().during(TTL.multipliedBy(2)).atMost(TTL.multipliedBy(4)).until(() -> !electorA.isLeader());
        assertThat(storedRecord().orElseThrow().isReleased()).as("the free lease stayed free").isTrue();

        AvailabilityChangeEvent.publish(a, ReadinessState.ACCEPTING_TRAFFIC);
        await().atMost(Duration.ofSeconds(10)).until(electorA::isLeader);
        assertThat(health(a).getDetails()).containsEntry("campaigning", true);
    }

    @Test
    void campaignWhenStartedLeadsWhileWarmingUpAndIgnoresReadiness() throws Exception {
        ConfigurableApplicationContext a = startWarmingUp("app-a", "hoplock.campaign-when=started");
        Elector electorA = elector(a);
        await().atMost(Duration.ofSeconds(10)).until(electorA::isLeader);
        assertThat(health(a).getDetails()).containsEntry("campaigning", true);

        AvailabilityChangeEvent.publish(a, ReadinessState.REFUSING_TRAFFIC);
        await().during(TTL.multipliedBy(2)).atMost(TTL.multipliedBy(4)).until(electorA::isLeader);
    }

    @Test
    void onTheMemoryStoreTheApplicationLeadsWhenRunReturns() {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(DemoJobApplication.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off", "hoplock.backend=memory", "hoplock.owner=solo",
                        "logging.level.root=WARN")
                .run();
        contexts.add(context);
        assertThat(elector(context).isLeader()).as("the first round is decided when the application is ready")
                .isTrue();
    }

    private ConfigurableApplicationContext start(String owner, String... properties) {
        ConfigurableApplicationContext context = builder(owner, properties).run();
        contexts.add(context);
        return context;
    }

    /** Starts an application whose warm-up lasts until {@link WarmUp#finish}, and returns it while it warms up. */
    private ConfigurableApplicationContext startWarmingUp(String owner, String... properties) throws Exception {
        SpringApplicationBuilder builder = builder(owner, properties).sources(WarmUp.class);
        running.add(CompletableFuture.supplyAsync(builder::run));
        ConfigurableApplicationContext context = WarmUp.started(owner).get(30, TimeUnit.SECONDS);
        contexts.add(context);
        return context;
    }

    private SpringApplicationBuilder builder(String owner, String... properties) {
        return new SpringApplicationBuilder(DemoJobApplication.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off",
                        "hoplock.backend=filesystem", "hoplock.filesystem.directory=" + directory,
                        "hoplock.owner=" + owner, "hoplock.ttl=" + TTL.toMillis() + "ms", "hoplock.renew=500ms",
                        "hoplock.poll=100ms", "hoplock.release-timeout=1s",
                        "management.endpoints.jmx.exposure.include=hoplock", "spring.jmx.enabled=true",
                        // two applications in one JVM: unique MBean names (the test class path has a DataSource)
                        "spring.jmx.unique-names=true",
                        "logging.level.root=WARN", "logging.level.dev.hoplock=INFO")
                .properties(properties);
    }

    private Optional<LeaseRecord> storedRecord() throws Exception {
        var stored = new FilesystemBackend(directory).read("default", Duration.ofSeconds(5));
        return stored.isEmpty() ? Optional.empty() : Optional.of(LeaseRecordCodec.decode(stored.get().content()));
    }

    private static Elector elector(ConfigurableApplicationContext context) {
        return context.getBean(HoplockElections.class).getDefault();
    }

    private static Health health(ConfigurableApplicationContext context) {
        CompositeHealthContributor composite = context.getBean("hoplockHealthContributor",
                CompositeHealthContributor.class);
        return ((HealthIndicator) composite.getContributor("default")).health();
    }
}
