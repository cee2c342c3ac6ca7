package dev.hoplock.s3;

import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.s3.server.S3MockExtension;
import dev.hoplock.s3.server.S3MockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

import static dev.hoplock.s3.S3BackendTest.written;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Records cross the S3 path unchanged in both directions: objects as Go hoplock writes them (planted with a plain,
 * unconditional PutObject) read back through the backend and the codec, and records the Java side writes have
 * exactly the shape Go's {@code encoding/json} and {@code time.RFC3339} accept.
 */
@ExtendWith(S3MockExtension.class)
class GoRecordCompatibilityTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** What Go's json.Marshal of hoplock's State gives, with Go's RFC 3339 time (seconds always present). */
    private static final String GO_RECORD_SHAPE = "\\{\"generation\":(0|[1-9][0-9]*),"
            + "\"expires_at\":\"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})\""
            + "(,\"owner\":\"[^\"]+\")?(,\"nonce\":\"[^\"]*\")?}";

    private final S3MockServer server;
    private String prefix;
    private S3Backend backend;
    private S3Client raw;

    GoRecordCompatibilityTest(S3MockServer server) {
        this.server = server;
    }

    @BeforeEach
    void setUp() {
        prefix = TestS3.uniquePrefix("go");
        backend = TestS3.backend(server.endpoint(), server.bucket(), prefix);
        raw = TestS3.rawClient(server.endpoint());
    }

    @AfterEach
    void tearDown() {
        backend.close();
        raw.close();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            Go local zone, nanoseconds | {"generation":7,"expires_at":"2026-09-08T16:13:20.123456789+02:00","owner":"node-1"} | 7 | 2026-09-08T14:13:20.123456789Z | node-1
            UTC, no fraction           | {"generation":12,"expires_at":"2026-09-08T20:37:00Z","owner":"go-7f3a"}              | 12 | 2026-09-08T20:37:00Z           | go-7f3a
            owner omitted (released)   | {"generation":3,"expires_at":"0001-01-01T00:00:00Z"}                                 | 3 | 0001-01-01T00:00:00Z           | ''
            unknown fields             | {"generation":5,"expires_at":"2026-09-08T20:37:00.5Z","owner":"n","extra":{"a":[1,2]},"v":2} | 5 | 2026-09-08T20:37:00.500Z | n
            negative offset, millis    | {"generation":9,"expires_at":"2026-09-08T12:00:00.250-05:00","owner":"x"}            | 9 | 2026-09-08T17:00:00.250Z       | x
            offset beyond +18:00       | {"generation":4,"expires_at":"2026-09-09T20:36:00.5+23:59","owner":"far"}            | 4 | 2026-09-08T20:37:00.500Z       | far
            """)
    void goWrittenRecordsReadThroughTheBackend(String name, String json, long generation, String expiresAt, String owner)
            throws Exception {
        plantAsGoWould("svc/leader", json);

        StoredObject stored = backend.read("svc/leader", TIMEOUT).orElseThrow();
        LeaseRecord record = LeaseRecordCodec.decode(stored.content());

        assertThat(stored.content()).asString(StandardCharsets.UTF_8).isEqualTo(json);
        assertThat(record.generation()).isEqualTo(generation);
        assertThat(record.expiresAt()).isEqualTo(Instant.parse(expiresAt));
        assertThat(record.owner()).isEqualTo(owner);
    }

    @Test
    void aGoWrittenRecordCanBeTakenOverWithItsETag() throws Exception {
        plantAsGoWould("leader", "{\"generation\":7,\"expires_at\":\"2020-01-01T00:00:00Z\",\"owner\":\"go-node\"}");
        StoredObject stored = backend.read("leader", TIMEOUT).orElseThrow();
        LeaseRecord next = new LeaseRecord(8, Instant.parse("2030-01-01T00:00:00Z"), "java-node", "");

        Handle handle = written(backend.write("leader", stored.handle(), LeaseRecordCodec.encode(next), TIMEOUT));

        assertThat(LeaseRecordCodec.decode(backend.read("leader", TIMEOUT).orElseThrow().content())).isEqualTo(next);
        assertThat(handle).isNotEqualTo(stored.handle());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            nanoseconds        | 2026-09-08T20:37:00.123456789Z | node-1 | ''
            whole minute       | 2026-09-08T20:37:00Z           | node-1 | ''
            with nonce         | 2026-09-08T20:37:05.5Z         | node-2 | 3f1c
            released           | 0001-01-01T00:00:00Z           | ''     | 9a
            """)
    void javaWrittenRecordsHaveGosShape(String name, String expiresAt, String owner, String nonce) throws Exception {
        LeaseRecord record = new LeaseRecord(42, Instant.parse(expiresAt), owner, nonce);

        written(backend.write("leader", Handle.NONE, LeaseRecordCodec.encode(record), TIMEOUT));

        String stored = raw.getObjectAsBytes(get -> get.bucket(server.bucket()).key(prefix + "leader")).asUtf8String();
        assertThat(stored).matches(GO_RECORD_SHAPE).startsWith("{\"generation\":42,\"expires_at\":\"");
        assertThat(stored.contains("\"owner\"")).isEqualTo(!owner.isEmpty());
        assertThat(LeaseRecordCodec.decode(stored.getBytes(StandardCharsets.UTF_8))).isEqualTo(record);
    }

    private void plantAsGoWould(String leaseKey, String json) {
        raw.putObject(put -> put.bucket(server.bucket()).key(prefix + leaseKey).contentType("application/json"),
                RequestBody.fromString(json, StandardCharsets.UTF_8));
    }

    @Test
    void anObjectFarAboveTheSizeLimitIsReadOnlyUpToTheLimitAndRefusedByTheCodec() throws Exception {
        byte[] huge = new byte[8 * 1024 * 1024];
        java.util.Arrays.fill(huge, (byte) 'x');
        raw.putObject(put -> put.bucket(server.bucket()).key(prefix + "huge"), RequestBody.fromBytes(huge));

        StoredObject read = backend.read("huge", TIMEOUT).orElseThrow();
        assertThat(read.size()).isEqualTo(LeaseRecordCodec.MAX_SIZE + 1);
        assertThat(read.handle().isNone()).isFalse();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LeaseRecordCodec.decode(read.content()))
                .hasMessageContaining("larger than the limit");
        // The backend can still read the small objects around it afterwards (the connection was not poisoned).
        backend.write("small", Handle.NONE, "{}".getBytes(StandardCharsets.UTF_8), TIMEOUT);
        assertThat(backend.read("small", TIMEOUT)).isPresent();
    }
}
