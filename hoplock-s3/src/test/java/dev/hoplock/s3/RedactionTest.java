package dev.hoplock.s3;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Server text is shortened and stripped of anything shaped like a credential before it enters a message. */
class RedactionTest {

    @Test
    void signaturesKeyIdsAndTokensAreBlanked() {
        String echoed = "Authorization: AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20260908/us-east-1/s3/aws4_request,"
                + " SignedHeaders=host, Signature=fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024"
                + " x-amz-security-token: IQoJb3JpZ2luX2VjEOr//////////wEaCXVzLWVhc3QtMSJHMEUCIQDexample";

        String cleaned = Redaction.clean(echoed);

        assertThat(cleaned).doesNotContain("AKIAIOSFODNN7EXAMPLE", "fe5f80f77d5fa3be", "IQoJb3JpZ2lu")
                .contains("Signature=[redacted]", "Credential=[redacted]");
    }

    @Test
    void aBareAccessKeyIdIsBlanked() {
        assertThat(Redaction.clean("key ASIAY34FZKBOKMUTVV7A is not allowed")).isEqualTo("key [redacted] is not allowed");
    }

    @Test
    void ordinaryMessagesPassUnchangedAndLongOnesAreCut() {
        assertThat(Redaction.clean("The specified bucket does not exist.")).isEqualTo("The specified bucket does not exist.");
        assertThat(Redaction.clean("word ".repeat(200))).hasSize(Redaction.MAX_LENGTH + 3).endsWith("...");
        assertThat(Redaction.clean(null)).isEmpty();
    }
}
