package dev.hoplock.azure.blob;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Blob names of lease keys, and what the location prints. */
class BlobLocationTest {

    private final BlobLocation location = new BlobLocation("https://acct.blob.core.windows.net/", "locks", "p/");

    @Test
    void aKeyWithoutDotsIsThePrefixAndTheKey() {
        assertThat(location.blobName("billing/leader")).isEqualTo("p/billing/leader");
    }

    @Test
    void segmentsEndingInADotGainATildeSoThatAzureDoesNotDropTheDot() {
        assertThat(location.blobName("x/a.")).isEqualTo("p/x/a.~");
        assertThat(location.blobName("x./a")).isEqualTo("p/x.~/a");
        assertThat(location.blobName("...a/...")).isEqualTo("p/...a/...~");
        assertThat(location.blobName("a.b/c")).isEqualTo("p/a.b/c");
        assertThat(location.blobName("x/a.")).isNotEqualTo(location.blobName("x/a"));
    }

    @Test
    void theLongestKeyFitsAzuresBlobNameLimitWithTheLongestPrefix() {
        BlobLocation longest = new BlobLocation("https://a.blob.core.windows.net", "locks",
                "p".repeat(BlobLocation.MAX_PREFIX));
        String key = "a./".repeat(170) + "a";

        assertThat(longest.blobName(key)).hasSizeLessThanOrEqualTo(BlobLocation.MAX_BLOB_NAME);
        assertThatThrownBy(() -> new BlobLocation("https://a.blob.core.windows.net", "locks",
                "p".repeat(BlobLocation.MAX_PREFIX + 1))).hasMessageContaining("at most 256 characters");
    }

    @Test
    void describeIsTheUrlOfThePrefixWithoutQueryOrUserInfo() {
        BlobLocation withSecrets = new BlobLocation("https://user:pw@acct.blob.core.windows.net/?sv=1&sig=secret",
                "locks", "p/");

        assertThat(withSecrets.describe()).isEqualTo("https://acct.blob.core.windows.net/locks/p/");
        assertThat(location.uri("p/k")).isEqualTo("https://acct.blob.core.windows.net/locks/p/k");
    }

    @Test
    void containerNamesFollowAzuresRule() {
        for (String valid : new String[] {"abc", "hoplock-leases", "a1-b2", "$root"}) {
            assertThat(new BlobLocation("https://a.blob.core.windows.net", valid, "").container()).isEqualTo(valid);
        }
        for (String invalid : new String[] {"ab", "Hoplock", "a--b", "-ab", "ab-", "a_b", "a".repeat(64)}) {
            assertThatThrownBy(() -> new BlobLocation("https://a.blob.core.windows.net", invalid, ""))
                    .as(invalid).hasMessageContaining("3 to 63 lower-case letters");
        }
    }
}
