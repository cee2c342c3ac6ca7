package dev.hoplock.s3;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.s3.server.S3MockExtension;
import dev.hoplock.s3.server.S3MockServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.s3.S3Client;

import java.net.URI;
import java.time.Duration;

import static dev.hoplock.s3.S3BackendTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Settings are checked before anything is sent, and a client passed in is used as it is and never closed. */
@ExtendWith(S3MockExtension.class)
class S3BackendBuilderTest {

    private static final URI ENDPOINT = URI.create("http://127.0.0.1:9");

    @Test
    void theBucketIsRequired() {
        assertThatThrownBy(() -> S3Backend.builder().endpoint(ENDPOINT).build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("bucket"))
                .hasMessageContaining("bucket(");
    }

    @Test
    void aBucketWithAPathIsRefusedWithAHintAtThePrefix() {
        assertThatThrownBy(() -> S3Backend.builder().endpoint(ENDPOINT).bucket("bucket/locks").build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("bucket"))
                .hasMessageContaining("prefix");
    }

    @Test
    void aPrefixWithALeadingSlashIsRefused() {
        assertThatThrownBy(() -> S3Backend.builder().endpoint(ENDPOINT).bucket("b").prefix("/locks/").build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("prefix"))
                .hasMessageContaining("must not start with '/'");
    }

    @Test
    void anEndpointWithCredentialsOrWithoutSchemeIsRefused() {
        assertThatThrownBy(() -> S3Backend.builder().bucket("b").endpoint("http://key:secret@127.0.0.1:9000").build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("endpoint");
                    assertThat(String.valueOf(e.rejectedValue())).isEqualTo("http://127.0.0.1:9000");
                })
                .hasMessageContaining("must not carry credentials")
                .hasMessageNotContaining("secret@");
        assertThatThrownBy(() -> S3Backend.builder().bucket("b").endpoint("127.0.0.1:9000").build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("endpoint"))
                .hasMessageContaining("http://");
        assertThatThrownBy(() -> S3Backend.builder().bucket("b").endpoint("http://key:secret@bad host"))
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("endpoint");
                    assertThat(e.reason()).contains("not a URL");
                })
                .hasMessageNotContaining("secret");
    }

    @Test
    void aRegionThatCannotBeAHostNameIsRefused() throws BackendException {
        assertThatThrownBy(() -> S3Backend.builder().bucket("b").endpoint(ENDPOINT).region("eu west 1").build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("region");
                    assertThat(e.rejectedValue()).isEqualTo("eu west 1");
                });
        S3Backend accepted = S3Backend.builder().bucket("b").endpoint(ENDPOINT).region(" us-gov-west-1 ")
                .verifyConditionalWrites(false).build();
        accepted.close();
        assertThat(accepted.describe()).isEqualTo("s3://b/ at " + ENDPOINT);
    }

    @Test
    void timeoutsMustBePositive() {
        assertThatThrownBy(() -> S3Backend.builder().bucket("b").endpoint(ENDPOINT).requestTimeout(Duration.ZERO).build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("requestTimeout");
                    assertThat(e.rejectedValue()).isEqualTo(Duration.ZERO);
                    assertThat(e.limit()).isEqualTo(Duration.ZERO);
                })
                .hasMessageContaining("requestTimeout");
        assertThatThrownBy(() -> S3Backend.builder().bucket("b").endpoint(ENDPOINT)
                .connectTimeout(Duration.ofSeconds(-1)).build())
                .isInstanceOfSatisfying(InvalidSettingException.class,
                        e -> assertThat(e.setting()).isEqualTo("connectTimeout"));
    }

    @Test
    void clientSettingsAndAClientCannotBeCombined() {
        try (S3Client client = TestS3.rawClient(ENDPOINT)) {
            assertThatThrownBy(() -> S3Backend.builder().client(client).bucket("b").region("eu-west-1").build())
                    .isInstanceOfSatisfying(InvalidSettingException.class,
                            e -> assertThat(e.setting()).isEqualTo("region"))
                    .hasMessageContaining("come from that client");
        }
    }

    @Test
    void anExistingClientIsUsedAndLeftOpen(S3MockServer server) throws Exception {
        String prefix = TestS3.uniquePrefix("client");
        try (S3Client client = TestS3.rawClient(server.endpoint())) {
            S3Backend backend = S3Backend.builder().client(client).bucket(server.bucket()).prefix(prefix).build();

            assertThat(backend.write("k", Handle.NONE, bytes("a"), Duration.ofSeconds(5)))
                    .isInstanceOf(WriteResult.Written.class);
            assertThat(backend.describe()).isEqualTo("s3://" + server.bucket() + "/" + prefix + " at " + server.endpoint());
            backend.close();

            assertThat(client.headObject(h -> h.bucket(server.bucket()).key(prefix + "k")).eTag()).isNotEmpty();
        }
    }

    @Test
    void withoutAnEndpointDescribeNamesOnlyTheBucketAndPrefix() throws BackendException {
        try (S3Backend backend = S3Backend.builder().bucket("prod-locks").prefix("app/").region("eu-west-1")
                .verifyConditionalWrites(false).build()) {
            assertThat(backend.describe()).isEqualTo("s3://prod-locks/app/");
        }
    }
}
