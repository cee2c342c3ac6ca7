package dev.hoplock.s3;

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
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("bucket(");
    }

    @Test
    void aBucketWithAPathIsRefusedWithAHintAtThePrefix() {
        assertThatThrownBy(() -> S3Backend.builder().endpoint(ENDPOINT).bucket("bucket/locks").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prefix");
    }

    @Test
    void aPrefixWithALeadingSlashIsRefused() {
        assertThatThrownBy(() -> S3Backend.builder().endpoint(ENDPOINT).bucket("b").prefix("/locks/").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not start with '/'");
    }

    @Test
    void anEndpointWithCredentialsOrWithoutSchemeIsRefused() {
        assertThatThrownBy(() -> S3Backend.builder().bucket("b").endpoint("http://key:secret@127.0.0.1:9000").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not carry credentials")
                .hasMessageNotContaining("secret@");
        assertThatThrownBy(() -> S3Backend.builder().bucket("b").endpoint("127.0.0.1:9000").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("http://");
    }

    @Test
    void timeoutsMustBePositive() {
        assertThatThrownBy(() -> S3Backend.builder().bucket("b").endpoint(ENDPOINT).requestTimeout(Duration.ZERO).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("requestTimeout");
    }

    @Test
    void clientSettingsAndAClientCannotBeCombined() {
        try (S3Client client = TestS3.rawClient(ENDPOINT)) {
            assertThatThrownBy(() -> S3Backend.builder().client(client).bucket("b").region("eu-west-1").build())
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("come from that client");
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
