package dev.hoplock.compat;

import dev.hoplock.compat.CompatApplication.EventLog;
import dev.hoplock.compat.CompatApplication.GatedWork;
import dev.hoplock.core.election.Elector;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.LeaderObservedEvent;
import dev.hoplock.spring.leader.LeadershipAcquiredEvent;
import dev.hoplock.spring.leader.HoplockMeterBinder;
import dev.hoplock.spring.leader.SkippedCallCounter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The starter in a whole web application on the Spring Boot version this module builds with (the same test source
 * runs in every {@code boot-compat} module): two instances over one filesystem store elect one leader, the
 * {@code @LeaderOnly} gate runs the work on the leader only, leadership events arrive, and the actuator shows the
 * hoplock health component, the meters and the hoplock endpoint; a bad setting stops the start with hoplock's
 * failure analysis; a stopped application leads nothing and leads again when started.
 */
@ExtendWith(OutputCaptureExtension.class)
class CompatApplicationTests {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path directory;

    private final List<ConfigurableApplicationContext> started = new ArrayList<>();

    @AfterEach
    void closeAll() {
        started.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void runsTheBootVersionThisModuleIsFor() {
        String expected = System.getProperty("compat.expected-boot-version");
        System.out.println("Spring Boot " + SpringBootVersion.getVersion() + " (expected " + expected + ")");
        assertThat(expected).as("the module passes the version it is for").isNotBlank();
        assertThat(SpringBootVersion.getVersion()).isEqualTo(expected);
    }

    @Test
    void electsGatesAndReportsThroughTheActuator() throws Exception {
        ConfigurableApplicationContext a = start("app-a");
        Elector electorA = a.getBean(HoplockElections.class).getDefault();
        await().atMost(Duration.ofSeconds(10)).until(electorA::isLeader);
        ConfigurableApplicationContext b = start("app-b");
        Elector electorB = b.getBean(HoplockElections.class).getDefault();
        await().atMost(Duration.ofSeconds(10)).until(() -> electorB.holder().isPresent());
        assertThat(electorB.isLeader()).isFalse();

        GatedWork workA = a.getBean(GatedWork.class);
        GatedWork workB = b.getBean(GatedWork.class);
        assertThat(workA.work()).as("the leader runs the work").isEqualTo(1);
        assertThat(workB.work()).as("the follower skips it").isNull();
        assertThat(workB.runs()).isZero();

        // The events are published from the electors' threads, shortly after the state the awaits above saw.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(a.getBean(EventLog.class).events())
                .hasAtLeastOneElementOfType(LeadershipAcquiredEvent.class));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(b.getBean(EventLog.class).events())
                .hasAtLeastOneElementOfType(LeaderObservedEvent.class));
        assertThat(b.getBean(EventLog.class).events()).noneMatch(LeadershipAcquiredEvent.class::isInstance);

        MeterRegistry metersA = a.getBean(MeterRegistry.class);
        MeterRegistry metersB = b.getBean(MeterRegistry.class);
        assertThat(metersA.get(HoplockMeterBinder.LEADER).tag("election", "default").gauge().value()).isEqualTo(1.0);
        assertThat(metersB.get(HoplockMeterBinder.LEADER).tag("election", "default").gauge().value()).isEqualTo(0.0);
        // One counter per gated method (the application's coroutine service has more): the follower skipped one call.
        assertThat(metersB.get(SkippedCallCounter.METER).counters().stream().mapToDouble(c -> c.count()).sum())
                .isEqualTo(1.0);

        String healthA = get(a, "/actuator/health/hoplock", 200);
        assertThat(healthA).contains("\"status\":\"UP\"").contains("\"role\":\"leader\"")
                .contains("\"owner\":\"app-a\"");
        assertThat(get(b, "/actuator/health/hoplock", 200)).contains("\"status\":\"UP\"")
                .contains("\"role\":\"follower\"").contains("\"holder\":\"app-a\"");
        assertThat(get(a, "/actuator/health", 200)).contains("\"hoplock\"");
        assertThat(get(a, "/actuator/metrics/hoplock.leader?tag=election:default", 200))
                .contains("\"name\":\"hoplock.leader\"").contains("\"value\":1.0");
        assertThat(get(a, "/actuator/hoplock", 200)).contains("\"default\"").contains("app-a");
    }

    @Test
    void aBadSettingStopsTheStartWithHoplocksFailureAnalysis(CapturedOutput output) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(CompatApplication.class)
                .main(CompatApplication.class)
                .properties("hoplock.filesystem.directory=" + directory, "hoplock.owner=bad", "hoplock.ttl=10s",
                        "hoplock.renew=20s")
                .run()).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("Invalid hoplock setting hoplock.renew (election 'default'): ")
                .contains("must be shorter than ttl");
    }

    @Test
    void aStoppedApplicationLeadsNothingAndLeadsAgainWhenStarted() {
        // One application and nobody else: a short TTL keeps the wait for the lease it left (below) short.
        ConfigurableApplicationContext a = start("app-a", "hoplock.ttl=3s", "hoplock.renew=1s");
        Elector elector = a.getBean(HoplockElections.class).getDefault();
        GatedWork work = a.getBean(GatedWork.class);
        await().atMost(Duration.ofSeconds(10)).until(elector::isLeader);

        a.stop();
        assertThat(elector.isLeader()).as("the stop ended the term").isFalse();
        assertThat(work.work()).as("a @LeaderOnly call after the stop is skipped").isNull();
        assertThat(elector.isStopped()).as("withdrawn, not closed").isFalse();

        a.start();
        // A start within a TTL of the stop claims once that TTL (3 s here) has passed.
        await().atMost(Duration.ofSeconds(30)).until(elector::isLeader);
        assertThat(work.work()).as("@LeaderOnly runs again").isNotNull();
    }

    ConfigurableApplicationContext start(String owner) {
        return start(owner, "hoplock.ttl=10s", "hoplock.renew=2s");
    }

    ConfigurableApplicationContext start(String owner, String ttl, String renew) {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(CompatApplication.class)
                .main(CompatApplication.class)
                .properties("hoplock.filesystem.directory=" + directory, "hoplock.owner=" + owner, ttl, renew,
                        "hoplock.poll=100ms")
                .run();
        started.add(context);
        return context;
    }

    static String get(ConfigurableApplicationContext context, String path, int expectedStatus)
            throws IOException, InterruptedException {
        int port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s answered %s", path, response.body()).isEqualTo(expectedStatus);
        return response.body();
    }
}
