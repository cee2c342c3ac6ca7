package dev.hoplock.nats;

import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.nats.server.NatsServer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a server crash does to a lease on one node (a server of its own, not the module's shared one): a write that was
 * acknowledged is there after the server is killed with SIGKILL right after the acknowledgement and started again, and
 * so after a graceful stop (one round each); the next write's revision is higher than every earlier one (the random first revision is
 * kept across restarts). An operating-system crash or power loss is another matter: docs/stores/nats.md, Durability.
 */
class NatsRestartTest {

    @Test
    void anAcknowledgedWriteSurvivesKill9AndStopOfTheServer() throws Exception {
        try (NatsServer server = NatsServer.startSingle("restart");
             NatsBackend backend = NatsBackend.builder().servers(server.url()).bucket("restart").createBucket(true)
                     .requestTimeout(Duration.ofSeconds(3)).build()) {
            Handle handle = Handle.NONE;
            long lastRevision = 0;
            for (int round = 1; round <= 2; round++) {
                byte[] content = ("round " + round).getBytes(StandardCharsets.UTF_8);
                WriteResult result = backend.write("leader", handle, content, Duration.ofSeconds(3));
                assertThat(result).as("write of round %d", round).isInstanceOf(WriteResult.Written.class);
                handle = ((WriteResult.Written) result).handle();
                long revision = Long.parseLong(handle.value());
                assertThat(revision).as("revision of round %d", round).isGreaterThan(lastRevision)
                        .isGreaterThanOrEqualTo(Revisions.FIRST_MIN);
                lastRevision = revision;
                if (round % 2 == 1) {
                    server.kill();
                } else {
                    server.stop();
                }
                server.start();
                Optional<StoredObject> read = await("the key readable after the restart of round " + round)
                        .atMost(Duration.ofSeconds(20)).ignoreExceptions()
                        .until(() -> backend.read("leader", Duration.ofSeconds(2)), r -> true);
                assertThat(read).as("the acknowledged write of round %d after the restart", round).isPresent();
                assertThat(read.get().handle()).isEqualTo(handle);
                assertThat(read.get().content()).isEqualTo(content);
            }
        }
    }
}
