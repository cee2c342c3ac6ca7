package dev.hoplock.s3;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Object keys are prefix + lease key, and descriptions name bucket, prefix and endpoint but never user info. */
class S3LocationTest {

    @Test
    void theObjectKeyIsThePrefixFollowedByTheLeaseKey() {
        S3Location location = new S3Location("b", "locks/", Optional.empty(), "eu-west-1");

        assertThat(location.objectKey("billing/leader")).isEqualTo("locks/billing/leader");
        assertThat(location.uri("locks/billing/leader")).isEqualTo("s3://b/locks/billing/leader");
        assertThat(location.arn("locks/billing/leader")).isEqualTo("arn:aws:s3:::b/locks/billing/leader");
        assertThat(location.describe()).isEqualTo("s3://b/locks/");
        assertThat(location.endpointDescription()).isEqualTo("the AWS S3 endpoint in eu-west-1");
    }

    @Test
    void anEndpointIsDescribedWithoutUserInfoOrQuery() {
        S3Location location = new S3Location("b", "", Optional.of(URI.create("https://user:pa55@minio.local:9000/base?x=1")), "");

        assertThat(location.describe()).isEqualTo("s3://b/ at https://minio.local:9000/base");
        assertThat(location.endpointDescription()).doesNotContain("pa55", "user");
    }

    @Test
    void leaseKeysAreValidated() {
        S3Location location = new S3Location("b", "", Optional.empty(), "");

        assertThatThrownBy(() -> location.objectKey("../x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anOverlongPrefixIsRefused() {
        assertThatThrownBy(() -> new S3Location("b", "p".repeat(600), Optional.empty(), ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1024-byte");
    }
}
