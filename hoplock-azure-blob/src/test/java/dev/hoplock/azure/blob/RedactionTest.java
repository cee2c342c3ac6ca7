package dev.hoplock.azure.blob;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@link Redaction} removes from text a server or the SDK sent. */
class RedactionTest {

    @Test
    void removesSasSignaturesAccountKeysRequestSignaturesAndConfiguredSecrets() {
        Redaction redaction = new Redaction(List.of("myConfiguredSecret"));
        String text = "url ?sv=2024&sig=abc%2Bdef%3D&se=x; AccountKey=Zm9vYmFy==; SharedAccessSignature=sv=1&sig=q;"
                + " Authorization: SharedKey devstoreaccount1:k7Zq1Vt3w4+Ab/c= The MAC signature found in the HTTP"
                + " request 'Y2FmZWJhYmVjYWZlYmFiZWNhZmViYWJlY2FmZWJhYmU=' is not the same; myConfiguredSecret";

        String cleaned = redaction.clean(text);

        assertThat(cleaned).doesNotContain("abc%2Bdef%3D", "Zm9vYmFy", "k7Zq1Vt3w4", "Y2FmZWJhYmVj",
                "myConfiguredSecret").contains("sig=[redacted]", "AccountKey=[redacted]");
    }

    @Test
    void showsUrlsWithoutTheirQueryOrUserInfo() {
        String text = "Illegal character in query at index 9: http://user:pw@127.0.0.1:10000/devstoreaccount1/c/"
                + "locks/a-very-long-blob-name-0123456789abcdef?\"sv=2024&sig=abc%2Bdef%3D\" and more";

        assertThat(Redaction.none().clean(text)).isEqualTo("Illegal character in query at index 9: http://127.0.0.1:"
                + "10000/devstoreaccount1/c/locks/a-very-long-blob-name-0123456789abcdef?[redacted] and more");
    }

    @Test
    void replacesACauseChainThatRevealsASecretAndKeepsOneThatDoesNot() {
        Redaction redaction = new Redaction(List.of("sv=1&sig=abc"));
        IllegalStateException safe = new IllegalStateException("connection refused",
                new java.net.ConnectException("Connection refused"));
        RuntimeException unsafe = new RuntimeException("wrapped", new IllegalArgumentException(
                "not a URI: http://h/c/b?sv=1&sig=abc"));

        assertThat(redaction.safeCause(safe)).isSameAs(safe);
        Throwable replaced = redaction.safeCause(unsafe);
        assertThat(replaced).isInstanceOf(RedactedCause.class).hasToString("java.lang.RuntimeException: wrapped");
        assertThat(replaced.getCause()).hasToString("java.lang.IllegalArgumentException: not a URI: http://h/c/b"
                + "?[redacted]").hasNoCause();
        assertThat(replaced.getStackTrace()).isEqualTo(unsafe.getStackTrace());
    }

    @Test
    void shortensLongText() {
        assertThat(Redaction.none().clean("word ".repeat(200))).hasSizeLessThanOrEqualTo(Redaction.MAX_LENGTH + 3);
        assertThat(Redaction.none().clean(null)).isEmpty();
    }
}
