package dev.hoplock.elasticsearch;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Text from a server loses the configured secrets and anything shaped like a token before it reaches a message. */
class RedactionTest {

    @Test
    void configuredSecretsHeaderValuesAndLongTokensAreBlanked() {
        Redaction redaction = new Redaction(List.of("hunter2-secret", "aG9wbG9jazpodW50ZXIy"));

        String cleaned = redaction.clean("user [hoplock] password hunter2-secret, header Authorization: Basic"
                + " aG9wbG9jazpodW50ZXIy, ApiKey=VnVhQ2ZHY0JDZGJrUW0tZTVhT3g6dWkybHAyYXhUTm1zeWFrdzl0dk5udw==");

        assertThat(cleaned).doesNotContain("hunter2-secret").doesNotContain("aG9wbG9jazpodW50ZXIy")
                .doesNotContain("VnVhQ2ZHY0JDZGJrUW0tZTVhT3g6dWkybHAyYXhUTm1zeWFrdzl0dk5udw==")
                .contains("user [hoplock]");
    }

    @Test
    void longTextIsShortenedAndNullIsEmpty() {
        assertThat(Redaction.none().clean("x ".repeat(400))).hasSize(Redaction.MAX_LENGTH + 3).endsWith("...");
        assertThat(Redaction.none().clean(null)).isEmpty();
    }
}
