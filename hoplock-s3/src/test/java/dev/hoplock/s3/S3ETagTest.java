package dev.hoplock.s3;

import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.s3.server.FaultProxy;
import dev.hoplock.s3.server.FaultProxy.Request;
import dev.hoplock.s3.server.FaultProxy.Response;
import dev.hoplock.s3.server.S3MockExtension;
import dev.hoplock.s3.server.S3MockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;

import static dev.hoplock.s3.S3BackendTest.bytes;
import static dev.hoplock.s3.S3BackendTest.written;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * ETags are opaque handles sent back exactly as received; a store that refuses the quoted form gets one retry with
 * the bare value. The proxy in front of S3Mock plays a store that compares bare ETags only (412 for any quoted
 * If-Match, as Ceph and Hetzner reportedly do); S3Mock itself decides every request that reaches it.
 */
@ExtendWith(S3MockExtension.class)
class S3ETagTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final S3MockServer server;
    private FaultProxy proxy;
    private S3Backend backend;

    S3ETagTest(S3MockServer server) {
        this.server = server;
    }

    @BeforeEach
    void setUp() {
        proxy = FaultProxy.start(server.endpoint());
        backend = TestS3.backend(proxy.endpoint(), server.bucket(), TestS3.uniquePrefix("etag"));
    }

    @AfterEach
    void tearDown() {
        backend.close();
        proxy.close();
    }

    @Test
    void theHandleIsSentBackExactlyAsReceived() throws Exception {
        Handle first = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
        proxy.clearRequests();

        written(backend.write("k", first, bytes("b"), TIMEOUT));

        assertThat(first.value()).matches("\"[0-9a-f]{32}\"");
        assertThat(proxy.requests("PUT")).extracting(r -> r.header("If-Match")).containsExactly(first.value());
    }

    @Test
    void createSendsIfNoneMatchStar() throws Exception {
        written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));

        Request put = proxy.requests("PUT").get(0);
        assertThat(put.header("If-None-Match")).isEqualTo("*");
        assertThat(put.header("If-Match")).isNull();
        assertThat(put.header("Content-Type")).isEqualTo("application/json");
    }

    @Test
    void aSwapRefusedForItsQuotedETagIsRetriedOnceBare() throws Exception {
        Handle first = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
        refuseQuotedIfMatch();

        Handle second = written(backend.write("k", first, bytes("b"), TIMEOUT));

        assertThat(proxy.requests("PUT")).extracting(r -> r.header("If-Match"))
                .containsExactly(first.value(), first.value().substring(1, first.value().length() - 1));
        assertThat(backend.read("k", TIMEOUT).orElseThrow().handle()).isEqualTo(second);
    }

    @Test
    void aStaleQuotedETagIsRefusedAfterExactlyOneBareRetry() throws Exception {
        Handle first = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
        written(backend.write("k", first, bytes("b"), TIMEOUT));
        refuseQuotedIfMatch();

        assertThat(backend.write("k", first, bytes("c"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
        assertThat(proxy.requests("PUT")).hasSize(2);
        assertThat(backend.read("k", TIMEOUT).orElseThrow().content()).isEqualTo(bytes("b"));
    }

    @Test
    void aDeleteRefusedForItsQuotedETagIsRetriedOnceBare() throws Exception {
        Handle first = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
        refuseQuotedIfMatch();

        assertThat(backend.delete("k", first, TIMEOUT)).isEqualTo(DeleteResult.DELETED);
        assertThat(proxy.requests("DELETE")).hasSize(2);
        assertThat(backend.read("k", TIMEOUT)).isEmpty();
    }

    @Test
    void aRefusedCreateIsNotRetried() throws Exception {
        written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
        proxy.clearRequests();

        assertThat(backend.write("k", Handle.NONE, bytes("b"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
        assertThat(proxy.requests("PUT")).hasSize(1);
    }

    @Test
    void bareETagsFromAStoreAreKeptBareAndNotRetried() throws Exception {
        proxy.rewrite((request, response) -> response.header("ETag") == null ? response
                : response.withHeader("ETag", response.header("ETag").replace("\"", "")));
        Handle first = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
        Handle second = written(backend.write("k", first, bytes("b"), TIMEOUT));
        proxy.clearRequests();

        assertThat(first.value()).doesNotContain("\"");
        assertThat(backend.write("k", first, bytes("c"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
        assertThat(proxy.requests("PUT")).extracting(r -> r.header("If-Match")).containsExactly(first.value());
        assertThat(backend.read("k", TIMEOUT).orElseThrow().handle()).isEqualTo(second);
    }

    /** From now on the proxy answers 412 to any quoted If-Match itself, like a store that compares bare ETags. */
    private void refuseQuotedIfMatch() {
        proxy.clearRequests();
        proxy.intercept(request -> {
            String ifMatch = request.header("If-Match");
            return ifMatch != null && ifMatch.startsWith("\"")
                    ? Response.s3Error(412, "PreconditionFailed", "At least one of the pre-conditions you specified did not hold")
                    : null;
        });
    }
}
