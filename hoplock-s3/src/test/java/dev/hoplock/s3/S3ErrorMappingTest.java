package dev.hoplock.s3;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.s3.server.FaultProxy;
import dev.hoplock.s3.server.FaultProxy.Response;
import dev.hoplock.s3.server.S3MockExtension;
import dev.hoplock.s3.server.S3MockServer;
import org.junit.jupiter.api.AfterEach;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.hoplock.s3.S3BackendTest.bytes;
import static dev.hoplock.s3.S3BackendTest.written;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Every answer that is not part of the protocol becomes a {@link BackendException} of the right kind with a message
 * a user can act on. Missing buckets, closed ports and silent servers are real; answers that no local server gives
 * (403, 409, 503, a missing ETag) are injected by a proxy in front of S3Mock.
 */
@ExtendWith(S3MockExtension.class)
class S3ErrorMappingTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final S3MockServer server;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private String prefix;

    S3ErrorMappingTest(S3MockServer server) {
        this.server = server;
    }

    @BeforeEach
    void setUp() {
        prefix = TestS3.uniquePrefix("errors");
    }

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable resource : resources) {
            resource.close();
        }
    }

    @Test
    void aMissingBucketSaysSoOnEveryOperation() {
        S3Backend backend = track(TestS3.backend(server.endpoint(), "no-such-bucket", prefix));

        for (BackendException e : List.of(
                thrown(() -> backend.read("k", TIMEOUT)),
                thrown(() -> backend.write("k", Handle.NONE, bytes("a"), TIMEOUT)),
                thrown(() -> backend.delete("k", Handle.of("\"x\""), TIMEOUT)))) {
            assertThat(e.kind()).isEqualTo(Kind.MISSING_CONTAINER);
            assertThat(e.isRetryable()).isFalse();
            assertThat(e.getMessage()).contains("bucket 'no-such-bucket' does not exist", server.endpoint().toString());
        }
    }

    @Test
    void aMissingBucketFailsTheBuildThroughTheProbe() {
        BackendException e = catchThrowableOfType(BackendException.class,
                () -> TestS3.builder(server.endpoint(), "no-such-bucket", prefix).build());

        assertThat(e.kind()).isEqualTo(Kind.MISSING_CONTAINER);
        assertThat(e.getMessage()).contains("no-such-bucket");
    }

    @Test
    void aClosedPortIsUnreachableAndNamesTheEndpoint() throws IOException {
        URI closed = URI.create("http://127.0.0.1:" + closedPort());
        S3Backend backend = track(TestS3.backend(closed, server.bucket(), prefix));

        BackendException read = thrown(() -> backend.read("k", TIMEOUT));
        BackendException build = catchThrowableOfType(BackendException.class,
                () -> TestS3.builder(closed, server.bucket(), prefix).build());

        for (BackendException e : List.of(read, build)) {
            assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
            assertThat(e.isRetryable()).isTrue();
            assertThat(e.getMessage()).contains("cannot reach the S3 endpoint " + closed, "connection refused");
        }
    }

    @Test
    void aServerThatNeverAnswersTimesOutWithinTheCallersTimeout() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            S3Backend backend = track(TestS3.backend(silent.endpoint(), server.bucket(), prefix));
            Duration timeout = Duration.ofMillis(400);

            BackendException e = thrown(() -> backend.write("k", Handle.NONE, bytes("a"), timeout));

            assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
            assertThat(e.getMessage()).contains("no final answer from " + silent.endpoint(), "within 400 ms",
                    "outcome of the PutObject is unknown");
            // Bounded by the caller's timeout, not by the server (which never answers) nor by the backend's 5 s
            // request (socket) timeout: the SDK's API-call timer, set to the caller's 400 ms, is what ended the call.
            // A wall-clock bound would also measure the scheduler of a loaded machine.
            assertThat(causes(e)).hasAtLeastOneElementOfType(ApiCallTimeoutException.class);
        }
    }

    @Test
    void theConfiguredRequestTimeoutCapsALongerCallerTimeout() throws Exception {
        try (SilentServer silent = new SilentServer()) {
            S3Backend backend = track(TestS3.builder(silent.endpoint(), server.bucket(), prefix)
                    .requestTimeout(Duration.ofMillis(300)).verifyConditionalWrites(false).build());

            Duration callerTimeout = Duration.ofMinutes(5);

            long start = System.nanoTime();
            BackendException e = thrown(() -> backend.read("k", callerTimeout));
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
            assertThat(e.getMessage()).as("the budget is the 300 ms request timeout").contains("within 300 ms");
            // The server would hang for the whole of the caller's 5 minutes; ending in a fraction of that is the
            // cap, whatever the scheduler of a loaded machine added to the 300 ms.
            assertThat(took).isLessThan(callerTimeout.dividedBy(5));
        }
    }

    @Test
    void accessDeniedNamesThePermissionAndTheObjectForEachOperation() {
        FaultProxy proxy = track(FaultProxy.start(server.endpoint()))
                .intercept(request -> Response.s3Error(403, "AccessDenied", "Access Denied"));
        S3Backend backend = track(TestS3.backend(proxy.endpoint(), server.bucket(), prefix));
        String arn = "arn:aws:s3:::" + server.bucket() + "/" + prefix + "svc/leader";

        BackendException get = thrown(() -> backend.read("svc/leader", TIMEOUT));
        BackendException put = thrown(() -> backend.write("svc/leader", Handle.NONE, bytes("a"), TIMEOUT));
        BackendException delete = thrown(() -> backend.delete("svc/leader", Handle.of("\"x\""), TIMEOUT));

        assertThat(List.of(get, put, delete)).extracting(BackendException::kind).containsOnly(Kind.ACCESS_DENIED);
        assertThat(get.getMessage()).contains("s3:GetObject on " + arn, "s3:ListBucket", "403 AccessDenied");
        assertThat(put.getMessage()).contains("s3:PutObject on " + arn).doesNotContain("ListBucket");
        assertThat(delete.getMessage()).contains("s3:DeleteObject on " + arn);
    }

    @Test
    void rejectedCredentialsAreAccessDeniedWithAHintAtTheKeys() {
        FaultProxy proxy = track(FaultProxy.start(server.endpoint())).intercept(request ->
                Response.s3Error(403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist"));
        S3Backend backend = track(TestS3.backend(proxy.endpoint(), server.bucket(), prefix));

        BackendException e = thrown(() -> backend.read("k", TIMEOUT));

        assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED);
        assertThat(e.getMessage()).contains("InvalidAccessKeyId", "credentials were not accepted");
    }

    @Test
    void conditionalRequestConflictIsALostRaceNotAnError() throws Exception {
        FaultProxy proxy = track(FaultProxy.start(server.endpoint()));
        S3Backend backend = track(TestS3.backend(proxy.endpoint(), server.bucket(), prefix));
        Handle current = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
        proxy.intercept(request -> request.method().equals("GET") ? null
                : Response.s3Error(409, "ConditionalRequestConflict", "A conflicting operation occurred"));

        assertThat(backend.write("k", current, bytes("b"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
        assertThat(backend.write("other", Handle.NONE, bytes("b"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
        assertThat(backend.delete("k", current, TIMEOUT)).isEqualTo(DeleteResult.PRECONDITION_FAILED);
        proxy.intercept(request -> request.method().equals("GET") ? null
                : Response.s3Error(409, "Conflict", "A concurrent delete or write succeeded"));
        assertThat(backend.delete("k", current, TIMEOUT)).isEqualTo(DeleteResult.PRECONDITION_FAILED);
        assertThat(backend.read("k", TIMEOUT).orElseThrow().handle()).isEqualTo(current);
    }

    @Test
    void serverErrorsAreRetriedByTheSdkThenTransient() {
        FaultProxy proxy = track(FaultProxy.start(server.endpoint()))
                .intercept(request -> Response.s3Error(500, "InternalError", "We encountered an internal error."));
        S3Backend backend = track(TestS3.backend(proxy.endpoint(), server.bucket(), prefix));

        BackendException e = thrown(() -> backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));

        assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
        assertThat(e.getMessage()).contains("500 InternalError", "PutObject", "outcome of the PutObject is unknown");
        assertThat(proxy.requests("PUT")).as("the SDK retries 5xx").hasSizeGreaterThan(1);
    }

    @Test
    void throttlingIsRetriedOnlyWithinTheCallersTimeout() {
        FaultProxy proxy = track(FaultProxy.start(server.endpoint()))
                .intercept(request -> Response.s3Error(503, "SlowDown", "Please reduce your request rate."));
        S3Backend backend = track(TestS3.backend(proxy.endpoint(), server.bucket(), prefix));
        Duration timeout = Duration.ofMillis(800);

        BackendException e = thrown(() -> backend.write("k", Handle.NONE, bytes("a"), timeout));

        assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
        assertThat(e.getMessage()).contains("within 800 ms", "outcome of the PutObject is unknown");
        assertThat(proxy.requests("PUT")).as("the SDK retries throttling").hasSizeGreaterThan(1);
        // The SDK's retries were cut by the API-call timer set to the caller's 800 ms, not ended by its own retry
        // limit: a cause, not a wall-clock bound that a loaded machine's scheduler could exceed.
        assertThat(causes(e)).hasAtLeastOneElementOfType(ApiCallTimeoutException.class);
    }

    @Test
    void aGetWithoutAnETagIsAnError() throws Exception {
        FaultProxy proxy = track(FaultProxy.start(server.endpoint()))
                .rewrite((request, response) -> response.withoutHeader("ETag"));
        S3Backend backend = track(TestS3.backend(proxy.endpoint(), server.bucket(), prefix));
        try (S3Backend direct = TestS3.backend(server.endpoint(), server.bucket(), prefix)) {
            written(direct.write("k", Handle.NONE, bytes("a"), TIMEOUT));
        }

        BackendException read = thrown(() -> backend.read("k", TIMEOUT));
        BackendException write = thrown(() -> backend.write("k2", Handle.NONE, bytes("a"), TIMEOUT));

        assertThat(read.kind()).isEqualTo(Kind.MISCONFIGURED);
        assertThat(read.getMessage()).contains("without an ETag", prefix + "k");
        assertThat(write.getMessage()).contains("without an ETag");
    }

    @Test
    void aStoreWithoutConditionalWritesSupportIsNamedAsSuch() {
        FaultProxy proxy = track(FaultProxy.start(server.endpoint())).intercept(request ->
                Response.s3Error(501, "NotImplemented", "A header you provided implies functionality that is not implemented"));
        S3Backend backend = track(TestS3.backend(proxy.endpoint(), server.bucket(), prefix));

        BackendException e = thrown(() -> backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));

        assertThat(e.kind()).isEqualTo(Kind.CONDITIONAL_WRITES_NOT_SUPPORTED);
        assertThat(e.getMessage()).contains("501 NotImplemented", "If-Match / If-None-Match");
    }

    @Test
    void aZeroTimeoutSendsNothing() {
        FaultProxy proxy = track(FaultProxy.start(server.endpoint()));
        S3Backend backend = track(TestS3.backend(proxy.endpoint(), server.bucket(), prefix));

        BackendException e = thrown(() -> backend.read("k", Duration.ZERO));

        assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
        assertThat(proxy.requests()).isEmpty();
    }

    @Test
    void invalidLeaseKeysAreRefusedBeforeAnyRequest() {
        FaultProxy proxy = track(FaultProxy.start(server.endpoint()));
        S3Backend backend = track(TestS3.backend(proxy.endpoint(), server.bucket(), prefix));

        assertThatThrownBy(() -> backend.read("../escape", TIMEOUT)).isInstanceOf(IllegalArgumentException.class);
        assertThat(proxy.requests()).isEmpty();
    }

    private <T extends AutoCloseable> T track(T resource) {
        resources.add(resource);
        return resource;
    }

    private static BackendException thrown(BackendCall call) {
        BackendException e = catchThrowableOfType(BackendException.class, call::run);
        assertThat(e).as("expected a BackendException").isNotNull();
        return e;
    }

    /** The exception's causes, outermost first. */
    private static List<Throwable> causes(Throwable e) {
        List<Throwable> causes = new ArrayList<>();
        for (Throwable cause = e.getCause(); cause != null && !causes.contains(cause); cause = cause.getCause()) {
            causes.add(cause);
        }
        return causes;
    }

    @FunctionalInterface
    interface BackendCall {
        void run() throws Exception;
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Accepts connections and never answers: a store that hangs. */
    static final class SilentServer implements AutoCloseable {
        private final ServerSocket socket;
        private final List<Socket> accepted = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final Thread acceptor;

        SilentServer() throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            acceptor = new Thread(() -> {
                try {
                    while (!socket.isClosed()) {
                        accepted.add(socket.accept());
                    }
                } catch (IOException closed) {
                    // close() ends the loop.
                }
            }, "silent-server");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        URI endpoint() {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort());
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (Socket s : accepted) {
                s.close();
            }
        }
    }
}
