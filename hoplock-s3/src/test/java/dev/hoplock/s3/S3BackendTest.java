package dev.hoplock.s3;

import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.s3.server.S3MockExtension;
import dev.hoplock.s3.server.S3MockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The S3 protocol against S3Mock: what each request sends and how each answer maps onto the SPI. */
@ExtendWith(S3MockExtension.class)
class S3BackendTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final S3MockServer server;
    private String prefix;
    private S3Backend backend;
    private S3Client raw;

    S3BackendTest(S3MockServer server) {
        this.server = server;
    }

    @BeforeEach
    void setUp() {
        prefix = TestS3.uniquePrefix("backend");
        backend = TestS3.backend(server.endpoint(), server.bucket(), prefix);
        raw = TestS3.rawClient(server.endpoint());
    }

    @AfterEach
    void tearDown() {
        backend.close();
        raw.close();
    }

    @Test
    void readOfAMissingKeyIsEmpty() throws Exception {
        assertThat(backend.read("nothing-here", TIMEOUT)).isEmpty();
    }

    @Test
    void createStoresTheBytesUnderPrefixPlusKeyAsJson() throws Exception {
        byte[] body = "{\"generation\":1}".getBytes(StandardCharsets.UTF_8);

        WriteResult result = backend.write("svc/leader", Handle.NONE, body, TIMEOUT);

        assertThat(result).isInstanceOf(WriteResult.Written.class);
        Handle handle = ((WriteResult.Written) result).handle();
        assertThat(raw.getObjectAsBytes(get -> get.bucket(server.bucket()).key(prefix + "svc/leader")).asByteArray())
                .isEqualTo(body);
        HeadObjectResponse head = raw.headObject(h -> h.bucket(server.bucket()).key(prefix + "svc/leader"));
        assertThat(head.contentType()).isEqualTo("application/json");
        assertThat(head.eTag()).isEqualTo(handle.value());
        assertThat(backend.objectKey("svc/leader")).isEqualTo(prefix + "svc/leader");
    }

    @Test
    void readReturnsTheBytesAndTheETagExactlyAsTheStoreSentIt() throws Exception {
        Handle written = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));

        StoredObject read = backend.read("k", TIMEOUT).orElseThrow();

        assertThat(read.content()).isEqualTo(bytes("a"));
        assertThat(read.handle()).isEqualTo(written);
        // S3 ETags are quoted, and the handle keeps the quotes.
        assertThat(read.handle().value()).startsWith("\"").endsWith("\"");
    }

    @Test
    void secondCreateIsRefusedAndLeavesTheObject() throws Exception {
        Handle first = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));

        assertThat(backend.write("k", Handle.NONE, bytes("b"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
        assertThat(backend.read("k", TIMEOUT)).map(StoredObject::handle).contains(first);
    }

    @Test
    void swapWithTheCurrentHandleSucceedsAndAStaleOneIsRefused() throws Exception {
        Handle first = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
        Handle second = written(backend.write("k", first, bytes("b"), TIMEOUT));

        assertThat(second).isNotEqualTo(first);
        assertThat(backend.write("k", first, bytes("c"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
        assertThat(backend.read("k", TIMEOUT).orElseThrow().content()).isEqualTo(bytes("b"));
    }

    @Test
    void swapOfAMissingKeyIsNotFound() throws Exception {
        Handle gone = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
        assertThat(backend.delete("k", gone, TIMEOUT)).isEqualTo(DeleteResult.DELETED);

        assertThat(backend.write("k", gone, bytes("b"), TIMEOUT)).isEqualTo(WriteResult.notFound());
        assertThat(backend.read("k", TIMEOUT)).isEmpty();
    }

    @Test
    void deleteRemovesOnlyTheExpectedVersion() throws Exception {
        Handle first = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
        Handle second = written(backend.write("k", first, bytes("b"), TIMEOUT));

        assertThat(backend.delete("k", first, TIMEOUT)).isEqualTo(DeleteResult.PRECONDITION_FAILED);
        assertThat(backend.read("k", TIMEOUT)).isPresent();
        assertThat(backend.delete("k", second, TIMEOUT)).isEqualTo(DeleteResult.DELETED);
        assertThat(backend.read("k", TIMEOUT)).isEmpty();
        assertThat(backend.delete("k", second, TIMEOUT)).isEqualTo(DeleteResult.NOT_FOUND);
    }

    @Test
    void keysUnderOnePrefixAreIndependent() throws Exception {
        written(backend.write("a/leader", Handle.NONE, bytes("a"), TIMEOUT));

        assertThat(backend.write("b/leader", Handle.NONE, bytes("b"), TIMEOUT)).isInstanceOf(WriteResult.Written.class);
        assertThat(backend.read("a/leader", TIMEOUT).orElseThrow().content()).isEqualTo(bytes("a"));
    }

    @Test
    void twoPrefixesInOneBucketDoNotShareLeases() throws Exception {
        try (S3Backend other = TestS3.backend(server.endpoint(), server.bucket(), TestS3.uniquePrefix("other"))) {
            written(backend.write("leader", Handle.NONE, bytes("a"), TIMEOUT));

            assertThat(other.read("leader", TIMEOUT)).isEmpty();
            assertThat(other.write("leader", Handle.NONE, bytes("b"), TIMEOUT)).isInstanceOf(WriteResult.Written.class);
        }
    }

    @Test
    void describeNamesBucketPrefixAndEndpoint() {
        assertThat(backend.describe()).isEqualTo("s3://" + server.bucket() + "/" + prefix + " at " + server.endpoint());
        assertThat(backend.toString()).contains(backend.describe());
    }

    static Handle written(WriteResult result) {
        assertThat(result).isInstanceOf(WriteResult.Written.class);
        return ((WriteResult.Written) result).handle();
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

}
