package dev.hoplock.s3;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.StoreCapabilities.Support;
import dev.hoplock.core.backend.StoreNotCapableException;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.s3.server.CephRgw;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.time.Duration;
import java.util.Map;

import static dev.hoplock.s3.S3BackendTest.bytes;
import static dev.hoplock.s3.S3BackendTest.written;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * What Ceph RGW 16.2 does with conditional requests, and what the S3 backend makes of it (run with {@code -Pceph}):
 * the probe finds create and swap working with bare ETags and DELETE ignoring If-Match; an elector that releases by
 * PUT is accepted, release by DELETE is refused; a swap of a missing key, which RGW answers with 412, is reported as
 * not found; RGW's prefix compare of If-Match cannot make a stale ETag of ours match.
 */
@Tag("ceph")
@ExtendWith(CephRgw.Extension.class)
class CephRgwBehaviourTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final CephRgw rgw;
    private S3Backend backend;
    private String prefix;

    CephRgwBehaviourTest(CephRgw rgw) {
        this.rgw = rgw;
    }

    @BeforeEach
    void setUp() throws BackendException {
        prefix = TestS3.uniquePrefix("rgw");
        backend = CephRgwBackendContractTest.builder(rgw, prefix).build();
    }

    @AfterEach
    void tearDown() {
        backend.close();
    }

    @Test
    void theProbeFindsCreateAndSwapWithBareETagsAndNoConditionalDelete() throws Exception {
        StoreCapabilities capabilities = backend.verify();

        assertThat(capabilities.support()).containsOnly(Map.entry(Capability.CONDITIONAL_CREATE, Support.VERIFIED),
                Map.entry(Capability.CONDITIONAL_SWAP, Support.VERIFIED),
                Map.entry(Capability.CONDITIONAL_DELETE, Support.NOT_SUPPORTED));
        assertThat(backend.ifMatchForm()).isEqualTo(IfMatchForm.BARE);
        assertThat(capabilities.handleForm()).isEqualTo("bare ETag in If-Match");
        assertThatCode(() -> capabilities.requireFor(false)).doesNotThrowAnyException();
        StoreNotCapableException refused = catchThrowableOfType(StoreNotCapableException.class,
                () -> capabilities.requireFor(true));
        assertThat(refused.missing()).isEqualTo(Capability.CONDITIONAL_DELETE);
        assertThat(refused.getMessage()).contains(rgw.endpoint().toString(),
                "answered DELETED to a DELETE with If-Match and a stale ETag", "releaseByDelete=false, the default");
    }

    @Test
    void aStaleDeleteReallyRemovesTheObjectWhichIsWhyReleaseByDeleteIsRefused() throws Exception {
        Handle stale = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
        written(backend.write("k", stale, bytes("b"), TIMEOUT));

        assertThat(backend.delete("k", stale, TIMEOUT)).isEqualTo(DeleteResult.DELETED);
        assertThat(backend.read("k", TIMEOUT)).isEmpty();
    }

    @Test
    void aSwapOfAMissingKeyIsNotFoundAndAStaleSwapIsRefused() throws Exception {
        Handle first = written(backend.write("k", Handle.NONE, bytes("a"), TIMEOUT));
        Handle second = written(backend.write("k", first, bytes("b"), TIMEOUT));

        assertThat(backend.write("k", first, bytes("stale"), TIMEOUT)).isEqualTo(WriteResult.preconditionFailed());
        assertThat(backend.write("missing", second, bytes("c"), TIMEOUT)).isEqualTo(WriteResult.notFound());
        assertThat(backend.read("missing", TIMEOUT)).isEmpty();
    }

    /**
     * RGW compares If-Match as a prefix: the header matches when it begins with the current ETag. Our If-Match is always
     * a whole ETag the store gave us (32 hex digits for every PUT of ours), so it begins with the current ETag only if
     * it equals it. A header shorter than the ETag (a strict prefix of it) does not match.
     */
    @Test
    void ifMatchIsComparedAsAPrefixOfTheHeaderWhichNoStaleETagOfOursCanPass() throws Exception {
        String key = prefix + "prefix-compare";
        try (S3Client raw = rgw.rawClient()) {
            String first = bare(raw.putObject(put -> put.bucket(rgw.bucket()).key(key), RequestBody.fromString("a"))
                    .eTag());
            String second = bare(raw.putObject(put -> put.bucket(rgw.bucket()).key(key).ifMatch(first),
                    RequestBody.fromString("b")).eTag());

            assertThat(status(() -> raw.putObject(put -> put.bucket(rgw.bucket()).key(key).ifMatch(second + "XYZ"),
                    RequestBody.fromString("c")))).as("the current ETag followed by anything").isEqualTo(200);
            String third = bare(raw.headObject(head -> head.bucket(rgw.bucket()).key(key)).eTag());
            assertThat(status(() -> raw.putObject(put -> put.bucket(rgw.bucket()).key(key)
                    .ifMatch(third.substring(0, 16)), RequestBody.fromString("d"))))
                    .as("a strict prefix of the current ETag").isEqualTo(412);
            assertThat(status(() -> raw.putObject(put -> put.bucket(rgw.bucket()).key(key).ifMatch(first),
                    RequestBody.fromString("e")))).as("a stale whole ETag").isEqualTo(412);
            assertThat(first).hasSize(32);
            assertThat(second).hasSize(32);
        }
    }

    private static String bare(String etag) {
        return etag.replace("\"", "");
    }

    private static int status(Runnable request) {
        try {
            request.run();
            return 200;
        } catch (SdkException e) {
            return S3Responses.status(e);
        }
    }
}
