package dev.hoplock.s3;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.StoreCapabilities.Support;
import dev.hoplock.core.backend.StoreNotCapableException;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.s3.server.FaultProxy;
import dev.hoplock.s3.server.LocalS3Server;
import dev.hoplock.s3.server.S3MockExtension;
import dev.hoplock.s3.server.S3MockServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.hoplock.s3.S3BackendTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The conditional-write probe accepts S3Mock (one request thread, real preconditions) and refuses stores that
 * ignore preconditions: local-s3 2.4, which ignores all of them, and S3Mock behind a proxy that strips one header,
 * as the proxies and emulators in the test-server note do.
 */
@ExtendWith(S3MockExtension.class)
class ConditionalWriteProbeTest {

    private static final String LOCAL_S3_BUCKET = "no-preconditions";

    private static LocalS3Server localS3;

    private final S3MockServer server;
    private String prefix;

    ConditionalWriteProbeTest(S3MockServer server) {
        this.server = server;
    }

    @BeforeAll
    static void startLocalS3() {
        localS3 = LocalS3Server.start();
        try (S3Client raw = TestS3.rawClient(localS3.endpoint())) {
            raw.createBucket(create -> create.bucket(LOCAL_S3_BUCKET));
        }
    }

    @AfterAll
    static void stopLocalS3() {
        if (localS3 != null) {
            localS3.close();
        }
    }

    @BeforeEach
    void setUp() {
        prefix = TestS3.uniquePrefix("probe");
    }

    @Test
    void s3MockPassesAndTheProbeCleansUp() throws Exception {
        try (S3Backend backend = TestS3.builder(server.endpoint(), server.bucket(), prefix).build()) {
            backend.verifyConditionalWrites();

            assertThat(objectsUnder(server.endpoint(), server.bucket(), prefix)).isEmpty();
        }
    }

    @Test
    void localS3IsRefusedAtBuildWithAMessageThatNamesTheStoreAndTheRisk() {
        BackendException e = catchThrowableOfType(BackendException.class,
                () -> TestS3.builder(localS3.endpoint(), LOCAL_S3_BUCKET, prefix).build());

        assertThat(e).isNotNull();
        assertThat(e.kind()).isEqualTo(Kind.CONDITIONAL_WRITES_NOT_SUPPORTED);
        assertThat(e.isRetryable()).isFalse();
        assertThat(e.getMessage()).contains(
                "s3://" + LOCAL_S3_BUCKET + "/" + prefix + " at " + localS3.endpoint(),
                "does not honour conditional writes",
                "accepted a second PUT with If-None-Match: *",
                "two leaders could coexist",
                "verifyConditionalWrites(false)");
        assertThat(objectsUnder(localS3.endpoint(), LOCAL_S3_BUCKET, prefix)).as("probe object removed").isEmpty();
    }

    @Test
    void localS3ReallyLetsTwoCreatesWinWhichIsWhatTheProbeGuardsAgainst() throws Exception {
        try (S3Backend unverified = TestS3.builder(localS3.endpoint(), LOCAL_S3_BUCKET, prefix)
                .verifyConditionalWrites(false).build()) {
            Duration timeout = Duration.ofSeconds(5);

            assertThat(unverified.write("leader", Handle.NONE, bytes("node-1"), timeout))
                    .isInstanceOf(WriteResult.Written.class);
            assertThat(unverified.write("leader", Handle.NONE, bytes("node-2"), timeout))
                    .isInstanceOf(WriteResult.Written.class);
        }
    }

    @Test
    void aStoreThatIgnoresIfMatchOnPutIsRefused() {
        try (FaultProxy proxy = FaultProxy.start(server.endpoint())) {
            proxy.mapRequest(request -> request.method().equals("PUT") ? request.withoutHeader("If-Match") : request);

            BackendException e = probeThrough(proxy);

            assertThat(e.kind()).isEqualTo(Kind.CONDITIONAL_WRITES_NOT_SUPPORTED);
            assertThat(e.getMessage()).contains("accepted a PUT with If-Match and a stale ETag",
                    proxy.endpoint().toString());
        }
    }

    @Test
    void aStoreThatIgnoresIfMatchOnDeleteIsAcceptedForReleaseByPutAndRefusedForReleaseByDelete() throws Exception {
        try (FaultProxy proxy = FaultProxy.start(server.endpoint())) {
            proxy.mapRequest(request -> request.method().equals("DELETE") ? request.withoutHeader("If-Match") : request);

            try (S3Backend backend = TestS3.builder(proxy.endpoint(), server.bucket(), prefix).build()) {
                StoreCapabilities capabilities = backend.verify();

                assertThat(capabilities.support()).containsOnly(
                        Map.entry(Capability.CONDITIONAL_CREATE, Support.VERIFIED),
                        Map.entry(Capability.CONDITIONAL_SWAP, Support.VERIFIED),
                        Map.entry(Capability.CONDITIONAL_DELETE, Support.NOT_SUPPORTED));
                assertThat(capabilities.detail(Capability.CONDITIONAL_DELETE))
                        .contains("answered DELETED to a DELETE with If-Match and a stale ETag");
                assertThatCode(() -> capabilities.requireFor(false)).doesNotThrowAnyException();
                StoreNotCapableException e = catchThrowableOfType(StoreNotCapableException.class,
                        () -> capabilities.requireFor(true));
                assertThat(e.getMessage()).contains(proxy.endpoint().toString(), "does not support conditional delete",
                        "answered DELETED to a DELETE with If-Match and a stale ETag", "releaseByDelete=true");

                BackendException strict = catchThrowableOfType(BackendException.class,
                        backend::verifyConditionalWrites);
                assertThat(strict.kind()).isEqualTo(Kind.CONDITIONAL_WRITES_NOT_SUPPORTED);
                assertThat(strict.getMessage()).contains("answered DELETED to a DELETE with If-Match and a stale ETag");
            }
            assertThat(objectsUnder(server.endpoint(), server.bucket(), prefix)).as("probe objects removed").isEmpty();
        }
    }

    @Test
    void verifyProbesOnceAndRemembersTheReport() throws Exception {
        try (FaultProxy proxy = FaultProxy.start(server.endpoint());
             S3Backend backend = TestS3.builder(proxy.endpoint(), server.bucket(), prefix).build()) {
            int probeRequests = proxy.requests().size();

            StoreCapabilities first = backend.verify();
            StoreCapabilities second = backend.verify();

            assertThat(probeRequests).as("requests of the probe at build").isPositive();
            assertThat(proxy.requests()).as("no request after build").hasSize(probeRequests);
            assertThat(second).isSameAs(first);
            assertThat(first.support().values()).containsOnly(Support.VERIFIED);
            assertThat(first.handleForm()).isEqualTo(StoreCapabilities.HANDLES_AS_RECEIVED);
        }
    }

    @Test
    void withVerificationDeferredBuildSendsNothingAndTheFirstVerifyProbes() throws Exception {
        try (FaultProxy proxy = FaultProxy.start(server.endpoint());
             S3Backend backend = TestS3.builder(proxy.endpoint(), server.bucket(), prefix).verifyOnBuild(false)
                     .build()) {
            assertThat(proxy.requests()).as("nothing at build").isEmpty();

            StoreCapabilities capabilities = backend.verify();

            assertThat(proxy.requests()).as("the probe ran on verify()").isNotEmpty();
            assertThat(capabilities.support().values()).containsOnly(Support.VERIFIED);
            assertThat(objectsUnder(server.endpoint(), server.bucket(), prefix)).as("probe objects removed").isEmpty();
        }
    }

    @Test
    void withTheProbeOffVerifySendsNothingAndAssumesEveryCapability() throws Exception {
        try (FaultProxy proxy = FaultProxy.start(server.endpoint());
             S3Backend backend = TestS3.builder(proxy.endpoint(), server.bucket(), prefix)
                     .verifyConditionalWrites(false).ifMatchForm(IfMatchForm.BARE).build()) {
            StoreCapabilities capabilities = backend.verify();

            assertThat(proxy.requests()).isEmpty();
            assertThat(capabilities.support().values()).containsOnly(Support.ASSUMED);
            assertThat(capabilities.handleForm()).isEqualTo("bare ETag in If-Match");
            assertThat(capabilities.store()).isEqualTo(backend.describe());
        }
    }

    @Test
    void turningTheProbeOffSendsNoRequestAtBuild() throws Exception {
        try (FaultProxy proxy = FaultProxy.start(server.endpoint());
             S3Backend ignored = TestS3.builder(proxy.endpoint(), server.bucket(), prefix)
                     .verifyConditionalWrites(false).build()) {
            assertThat(proxy.requests()).isEmpty();
        }
    }

    @Test
    void theProbeWorksOnAnyLinearisableBackend() {
        assertThatCode(() -> new ConditionalWriteProbe(new InMemoryBackend(), Duration.ofSeconds(1)).run())
                .doesNotThrowAnyException();
    }

    private BackendException probeThrough(FaultProxy proxy) {
        BackendException e = catchThrowableOfType(BackendException.class,
                () -> TestS3.builder(proxy.endpoint(), server.bucket(), prefix).build());
        assertThat(e).as("the probe must fail").isNotNull();
        assertThat(objectsUnder(server.endpoint(), server.bucket(), prefix)).as("probe object removed").isEmpty();
        return e;
    }

    private static List<String> objectsUnder(URI endpoint, String bucket, String prefix) {
        try (S3Client raw = TestS3.rawClient(endpoint)) {
            return raw.listObjectsV2(list -> list.bucket(bucket).prefix(prefix)).contents().stream()
                    .map(S3Object::key).toList();
        }
    }
}
