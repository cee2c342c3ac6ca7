package dev.hoplock.redis;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.redis.server.RawRedis;
import dev.hoplock.redis.server.RedisExtension;
import dev.hoplock.redis.server.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.time.Instant;

import static dev.hoplock.redis.RedisDurabilityTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The layout in Redis, the script cache, and calls that get no answer. */
@ExtendWith(RedisExtension.class)
class RedisBackendTest {

    private final RedisServer server;

    RedisBackendTest(RedisServer server) {
        this.server = server;
    }

    @Test
    void aLeaseIsAHashWhoseRecordFieldHoldsTheSharedRecordBytesUnchanged() throws Exception {
        String prefix = TestRedis.uniquePrefix("layout");
        byte[] record = LeaseRecordCodec.encode(new LeaseRecord(7, Instant.parse("2026-09-08T20:37:00.123456789Z"),
                "node-1", "nonce-1"));
        try (RedisBackend backend = TestRedis.builder(server, 0).prefix(prefix).build()) {
            Handle handle = ((WriteResult.Written) backend.write("billing/leader", Handle.NONE, record,
                    Duration.ofSeconds(5))).handle();

            assertThat(backend.redisKey("billing/leader")).isEqualTo(prefix + "billing/leader");
            assertThat(RawRedis.bytes(server.port(), "HGET", prefix + "billing/leader", "record")).isEqualTo(record);
            assertThat(server.command("HGET", prefix + "billing/leader", "version")).isEqualTo(handle.value());
            assertThat(handle.value()).matches("[0-9a-f]{32}");
            assertThat(new String(record, java.nio.charset.StandardCharsets.UTF_8))
                    .startsWith("{\"generation\":7,\"expires_at\":\"2026-09-08T20:37:00.123456789Z\",\"owner\":\"node-1\"");
        }
    }

    @Test
    void aFlushedScriptCacheIsRefilledWithoutAFailedCall() throws Exception {
        try (RedisBackend backend = TestRedis.builder(server, 0).prefix(TestRedis.uniquePrefix("noscript")).build()) {
            server.command("SCRIPT", "FLUSH");

            assertThat(backend.write("k", Handle.NONE, bytes("a"), Duration.ofSeconds(5)))
                    .isInstanceOf(WriteResult.Written.class);
            assertThat(backend.read("k", Duration.ofSeconds(5))).isPresent();
        }
    }

    @Test
    void aWriteThatGetsNoAnswerEndsWithinItsBudgetAsAnUnknownOutcomeAndTheNextCallWorks() throws Exception {
        try (RedisServer stopped = RedisServer.start();
                RedisBackend backend = TestRedis.builder(stopped, 0).build()) {
            stopped.pause();
            long start = System.nanoTime();
            BackendException e;
            try {
                e = catchThrowableOfType(BackendException.class,
                        () -> backend.write("k", Handle.NONE, bytes("a"), Duration.ofMillis(300)));
            } finally {
                stopped.resume();
            }
            long tookMillis = (System.nanoTime() - start) / 1_000_000;

            assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
            assertThat(e.getMessage()).contains("no answer from " + stopped.uri(0), "within 300 ms",
                    "the outcome is unknown");
            assertThat(tookMillis).as("the call ended near its budget, not at Lettuce's timeout").isLessThan(3_000);
            assertThat(backend.read("other", Duration.ofSeconds(5))).isEmpty();
        }
    }

    @Test
    void aServerKilledAndRestartedOnItsPortIsReachedAgain() throws Exception {
        RedisServer first = RedisServer.start();
        int port = first.port();
        try (RedisBackend backend = RedisBackend.builder().uri(first.uri(0)).build()) {
            assertThat(backend.write("k", Handle.NONE, bytes("a"), Duration.ofSeconds(5)))
                    .isInstanceOf(WriteResult.Written.class);
            first.kill();
            BackendException down = catchThrowableOfType(BackendException.class,
                    () -> backend.read("k", Duration.ofMillis(500)));
            assertThat(down.isRetryable()).isTrue();
            try (RedisServer second = RedisServer.startOnPort(port)) {
                org.awaitility.Awaitility.await("the backend reconnects").atMost(Duration.ofSeconds(20))
                        .ignoreExceptions().until(() -> backend.read("k", Duration.ofSeconds(1)).isEmpty());
                assertThat(backend.read("k", Duration.ofSeconds(1))).as("lost on restart: no persistence").isEmpty();
            }
        } finally {
            first.close();
        }
    }
}
