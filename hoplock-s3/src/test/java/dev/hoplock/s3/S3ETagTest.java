package dev.hoplock.s3;

import dev.hoplock.core.backend.BackendException;
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
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * ETags are opaque handles sent back in one form per backend: as received (quoted), or bare when the probe found
 * that the store compares only bare ETags; a refused request is never repeated in the other form. The proxy in front
 * of S3Mock plays a store that compares bare ETags only (412 for any quoted If-Match, as Ceph RGW does) or one that
 * ignores a malformed (unquoted) If-Match; S3Mock itself decides every request that reaches it.
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
    void aStaleWriterNeverWinsThroughAProxyThatIgnoresAnUnquotedIfMatch() throws Exception {
        ignoreUnquotedIfMatch();
        Handle first = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
        written(backend.write("k", first, bytes("b"), TIMEOUT));
        proxy.clearRequests();

        assertThat(backend.write("k", first, bytes("stale"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
        assertThat(backend.delete("k", first, TIMEOUT)).isEqualTo(DeleteResult.PRECONDITION_FAILED);

        assertThat(proxy.requests()).as("one request each, never repeated in another form")
                .extracting(Request::method).containsExactly("PUT", "DELETE");
        assertThat(backend.read("k", TIMEOUT).orElseThrow().content()).isEqualTo(bytes("b"));
    }

    @Test
    void theProbeKeepsETagsAsReceivedWhenTheStoreComparesThemQuoted() throws Exception {
        ignoreUnquotedIfMatch();
        try (S3Backend verified = TestS3.builder(proxy.endpoint(), server.bucket(), TestS3.uniquePrefix("etag"))
                .build()) {
            assertThat(verified.ifMatchForm()).isEqualTo(IfMatchForm.AS_RECEIVED);
            assertThat(proxy.requests()).extracting(r -> r.header("If-Match")).filteredOn(v -> v != null)
                    .as("the probe never tried a bare ETag").allMatch(v -> v.startsWith("\""));
        }
    }

    @Test
    void theProbeChoosesBareETagsOnceForAStoreThatComparesOnlyThose() throws Exception {
        refuseQuotedIfMatch();
        try (S3Backend verified = TestS3.builder(proxy.endpoint(), server.bucket(), TestS3.uniquePrefix("etag"))
                .build()) {
            assertThat(verified.ifMatchForm()).isEqualTo(IfMatchForm.BARE);
            Handle first = written(verified.write("k", Handle.NONE, bytes("a"), TIMEOUT));
            proxy.clearRequests();

            Handle second = written(verified.write("k", first, bytes("b"), TIMEOUT));
            assertThat(verified.write("k", first, bytes("stale"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
            assertThat(verified.delete("k", second, TIMEOUT)).isEqualTo(DeleteResult.DELETED);

            String bareFirst = first.value().substring(1, first.value().length() - 1);
            String bareSecond = second.value().substring(1, second.value().length() - 1);
            assertThat(proxy.requests()).extracting(r -> r.method() + " " + r.header("If-Match"))
                    .containsExactly("PUT " + bareFirst, "PUT " + bareFirst, "DELETE " + bareSecond);
        }
    }

    @Test
    void onAStoreThatAnswers412ToASwapOfAMissingKeyAReadTellsNotFoundFromChanged() throws Exception {
        refuseQuotedIfMatch();
        proxy.rewrite((request, response) -> request.method().equals("PUT") && request.header("If-Match") != null
                && response.status() == 404
                ? Response.s3Error(412, "PreconditionFailed", "At least one of the pre-conditions you specified did not hold")
                : response);
        try (S3Backend verified = TestS3.builder(proxy.endpoint(), server.bucket(), TestS3.uniquePrefix("etag"))
                .build()) {
            Handle first = written(verified.write("k", Handle.NONE, bytes("a"), TIMEOUT));
            Handle second = written(verified.write("k", first, bytes("b"), TIMEOUT));
            proxy.clearRequests();

            assertThat(verified.write("k", first, bytes("stale"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
            assertThat(verified.delete("k", second, TIMEOUT)).isEqualTo(DeleteResult.DELETED);
            assertThat(verified.write("k", second, bytes("gone"), TIMEOUT)).isEqualTo(WriteResult.notFound());
            assertThat(verified.read("k", TIMEOUT)).as("the refused swap created nothing").isEmpty();

            assertThat(proxy.requests()).as("one read after each refused swap").extracting(Request::method)
                    .containsExactly("PUT", "GET", "DELETE", "PUT", "GET", "GET");
        }
    }

    @Test
    void aServerErrorToASwapIsAnUnknownOutcome() throws Exception {
        Handle first = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
        proxy.intercept(request -> request.method().equals("PUT") && request.header("If-Match") != null
                ? Response.s3Error(500, "UnknownError", "") : null);

        BackendException e = catchThrowableOfType(BackendException.class,
                () -> backend.write("k", first, bytes("b"), TIMEOUT));

        assertThat(e).as("a 500 is no refusal").isNotNull();
        assertThat(e.kind()).isEqualTo(BackendException.Kind.TRANSIENT);
        assertThat(e.getMessage()).contains("500 UnknownError", "the outcome of the PutObject is unknown");
    }

    @Test
    void aStoreThatRefusesQuotedAndIgnoresBareETagsFailsTheProbe() {
        refuseQuotedIfMatch();
        ignoreUnquotedIfMatch();

        BackendException e = catchThrowableOfType(BackendException.class, () -> TestS3.builder(proxy.endpoint(),
                server.bucket(), TestS3.uniquePrefix("etag")).build());

        assertThat(e).as("the build must fail").isNotNull();
        assertThat(e.kind()).isEqualTo(BackendException.Kind.CONDITIONAL_WRITES_NOT_SUPPORTED);
        assertThat(e.getMessage()).contains("with If-Match ETags sent bare", "accepted a PUT with If-Match and a stale"
                + " ETag", "refused If-Match with the current ETag as it sent it, quoted");
    }

    @Test
    void withoutTheProbeAQuotedRefusalIsFinal() throws Exception {
        Handle first = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
        refuseQuotedIfMatch();

        assertThat(backend.write("k", first, bytes("b"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
        assertThat(backend.delete("k", first, TIMEOUT)).isEqualTo(DeleteResult.PRECONDITION_FAILED);

        assertThat(proxy.requests()).extracting(r -> r.method() + " " + r.header("If-Match"))
                .containsExactly("PUT " + first.value(), "DELETE " + first.value());
    }

    @Test
    void aBareFormSetOnTheBuilderIsSentFromTheFirstRequest() throws Exception {
        try (S3Backend bare = TestS3.builder(proxy.endpoint(), server.bucket(), TestS3.uniquePrefix("etag"))
                .verifyConditionalWrites(false).ifMatchForm(IfMatchForm.BARE).build()) {
            Handle first = written(bare.write("k", Handle.NONE, bytes("a"), TIMEOUT));
            refuseQuotedIfMatch();

            written(bare.write("k", first, bytes("b"), TIMEOUT));

            assertThat(proxy.requests("PUT")).extracting(r -> r.header("If-Match"))
                    .containsExactly(first.value().substring(1, first.value().length() - 1));
        }
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

    /**
     * From now on the proxy forwards a request whose If-Match is not quoted without that header, like a store or
     * proxy that ignores a malformed If-Match: such a request becomes an unconditional write.
     */
    private void ignoreUnquotedIfMatch() {
        proxy.mapRequest(request -> {
            String ifMatch = request.header("If-Match");
            return ifMatch != null && !ifMatch.startsWith("\"") ? request.withoutHeader("If-Match") : request;
        });
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
