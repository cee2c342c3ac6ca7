package dev.hoplock.samples.leaderdemo;

import dev.hoplock.spring.leader.HoplockElections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The sample starts on the filesystem store, leads, beats, and shows its health and endpoint over HTTP. */
class LeaderDemoApplicationTests {

    @Test
    void leadsAndReportsOverHttp(@TempDir Path directory) {
        try (ConfigurableApplicationContext context = SpringApplication.run(LeaderDemoApplication.class,
                "--hoplock.filesystem.directory=" + directory, "--hoplock.owner=sample-test", "--server.port=0",
                "--spring.main.banner-mode=off", "--management.endpoint.hoplock.access=unrestricted")) {
            HoplockElections elections = context.getBean(HoplockElections.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> elections.getDefault().isLeader());
            HeartbeatJob job = context.getBean(HeartbeatJob.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> job.beats() >= 1);

            String port = context.getEnvironment().getProperty("local.server.port");
            RestClient http = RestClient.create("http://localhost:" + port);
            String health = http.get().uri("/actuator/health").retrieve().body(String.class);
            assertThat(health).contains("\"hoplock\"", "\"role\":\"leader\"", "\"owner\":\"sample-test\"");
            String hoplock = http.get().uri("/actuator/hoplock").retrieve().body(String.class);
            assertThat(hoplock).contains("\"default\"", "\"leader\":true");
            String metric = http.get().uri("/actuator/metrics/hoplock.leader").retrieve().body(String.class);
            assertThat(metric).contains("\"value\":1.0");

            // A misspelled election answers 404 naming the elections that exist, for GET and for POST (step-down).
            for (HttpMethod method : List.of(HttpMethod.GET, HttpMethod.POST)) {
                ResponseEntity<String> answer = http.method(method).uri("/actuator/hoplock/nosuch").retrieve()
                        .onStatus(status -> true, (request, response) -> { })
                        .toEntity(String.class);
                assertThat(answer.getStatusCode().value()).as("%s /actuator/hoplock/nosuch", method).isEqualTo(404);
                assertThat(answer.getBody()).contains("\"election\":\"nosuch\"", "\"elections\":[\"default\"]");
            }
            assertThat(elections.getDefault().isLeader()).as("a misspelled step-down changes nothing").isTrue();
        }
    }

    @Test
    void theStepDownNeedsUnrestrictedEndpointAccess(@TempDir Path directory) {
        try (ConfigurableApplicationContext context = SpringApplication.run(LeaderDemoApplication.class,
                "--hoplock.filesystem.directory=" + directory, "--hoplock.owner=sample-test", "--server.port=0",
                "--spring.main.banner-mode=off")) {
            HoplockElections elections = context.getBean(HoplockElections.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> elections.getDefault().isLeader());
            String port = context.getEnvironment().getProperty("local.server.port");
            RestClient http = RestClient.create("http://localhost:" + port);

            ResponseEntity<String> answer = http.post().uri("/actuator/hoplock/default").retrieve()
                    .onStatus(status -> true, (request, response) -> { })
                    .toEntity(String.class);

            assertThat(answer.getStatusCode().is2xxSuccessful())
                    .as("POST /actuator/hoplock/default with the default (read-only) access").isFalse();
            assertThat(elections.getDefault().isLeader()).as("no step-down happened").isTrue();
            assertThat(http.get().uri("/actuator/hoplock/default").retrieve().body(String.class))
                    .contains("\"leader\":true");
        }
    }
}
