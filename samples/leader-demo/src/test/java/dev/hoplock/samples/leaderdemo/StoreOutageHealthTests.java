package dev.hoplock.samples.leaderdemo;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample over an S3 endpoint that is down (nothing listens on its port), with Kubernetes probes enabled: the
 * application's health stays 200 by default (hoplock reports UNKNOWN with the reason), hoplock is in neither the
 * liveness nor the readiness group, and hoplock.health.down-on-store-outage=true makes the outage a 503.
 */
class StoreOutageHealthTests {

    @Test
    void aStoreOutageDoesNotTakeTheApplicationDownByDefault() throws IOException {
        try (ConfigurableApplicationContext context = start(false)) {
            RestClient http = http(context);
            ResponseEntity<String> health = awaitHealthSaying(http, "could not be checked");
            assertThat(health.getStatusCode().value()).isEqualTo(200);
            assertThat(health.getBody()).contains("\"status\":\"UP\"", "\"hoplock\"", "\"status\":\"UNKNOWN\"",
                    "hoplock.health.down-on-store-outage=false");

            for (String group : new String[] {"liveness", "readiness"}) {
                ResponseEntity<String> probe = get(http, "/actuator/health/" + group);
                assertThat(probe.getStatusCode().value()).as(group).isEqualTo(200);
                assertThat(probe.getBody()).as(group).contains("\"status\":\"UP\"").doesNotContain("hoplock");
            }
        }
    }

    @Test
    void aStoreOutageIsA503WhenConfiguredSo() throws IOException {
        try (ConfigurableApplicationContext context = start(true)) {
            RestClient http = http(context);
            ResponseEntity<String> health = awaitHealthSaying(http, "could not be checked");
            assertThat(health.getStatusCode().value()).isEqualTo(503);
            assertThat(health.getBody()).contains("\"status\":\"DOWN\"");
            assertThat(get(http, "/actuator/health/liveness").getStatusCode().value())
                    .as("liveness never contains hoplock").isEqualTo(200);
        }
    }

    private static ConfigurableApplicationContext start(boolean downOnOutage) throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        return SpringApplication.run(LeaderDemoApplication.class, "--server.port=0", "--spring.main.banner-mode=off",
                "--hoplock.backend=s3", "--hoplock.s3.bucket=leases", "--hoplock.s3.path-style=true",
                "--hoplock.s3.endpoint=http://127.0.0.1:" + closedPort, "--hoplock.s3.region=us-east-1",
                "--hoplock.s3.access-key=test", "--hoplock.s3.secret-key=test",
                "--hoplock.ttl=1s", "--hoplock.renew=300ms", "--hoplock.poll=100ms",
                "--management.endpoint.health.probes.enabled=true",
                "--hoplock.health.down-on-store-outage=" + downOnOutage);
    }

    private static RestClient http(ConfigurableApplicationContext context) {
        return RestClient.create("http://localhost:" + context.getEnvironment().getProperty("local.server.port"));
    }

    private static ResponseEntity<String> awaitHealthSaying(RestClient http, String text) {
        AtomicReference<ResponseEntity<String>> last = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            ResponseEntity<String> answer = get(http, "/actuator/health");
            last.set(answer);
            String body = answer.getBody();
            return body != null && body.contains(text);
        });
        return Objects.requireNonNull(last.get(), "awaited until an answer said it");
    }

    private static ResponseEntity<String> get(RestClient http, String path) {
        return http.get().uri(path).retrieve().onStatus(status -> true, (request, response) -> { })
                .toEntity(String.class);
    }
}
