package dev.hoplock.spring.actuate;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.spring.leader.HoplockElections;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The health indicator of the Boot generation this module builds with turns each status of {@link ElectionHealthCheck}
 * into Boot's status with the same code and details (the source names no Boot type: each generation has its own
 * {@code Health}).
 */
class ElectionHealthIndicatorTests {

    private final Elector elector = Elector.builder(new InMemoryBackend(), "health-key").owner("me").build();
    private final HoplockElections elections = new HoplockElections(Map.of("default", elector), "default");
    private final ElectionHealthIndicator indicator = new ElectionHealthIndicator("default", elector, elections, null,
            false);

    @AfterEach
    void close() {
        elections.close();
    }

    @Test
    void startingThenLeaderThenStopped() {
        var starting = indicator.health();
        assertThat(starting.getStatus().getCode()).isEqualTo("UNKNOWN");
        assertThat(starting.getDetails()).containsEntry("reason", "starting").containsEntry("election", "default");

        elections.startAll();
        await().atMost(Duration.ofSeconds(10)).until(elector::isLeader);
        var leading = indicator.health();
        assertThat(leading.getStatus().getCode()).isEqualTo("UP");
        assertThat(leading.getDetails()).containsEntry("role", "leader").containsEntry("holder", "me")
                .containsEntry("key", "health-key").containsKey("timeLeft");

        elections.close();
        var stopped = indicator.health();
        assertThat(stopped.getStatus().getCode()).isEqualTo("OUT_OF_SERVICE");
        assertThat(stopped.getDetails()).containsEntry("reason", "stopped");
    }
}
