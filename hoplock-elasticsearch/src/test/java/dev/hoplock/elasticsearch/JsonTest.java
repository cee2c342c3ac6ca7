package dev.hoplock.elasticsearch;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The answer parser refuses anything that is not exactly one JSON value. */
class JsonTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "{", "{\"a\":}", "{\"a\":1,}", "[1 2]", "{\"a\":1} x", "\"\\x\"", "01x", "tru",
            "{a:1}", "\"\u0001\"", "-", "1."})
    void invalidJsonIsRefusedWithThePosition(String text) {
        assertThatThrownBy(() -> Json.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid JSON at character");
    }

    @ParameterizedTest
    @ValueSource(ints = {Json.MAX_DEPTH + 2})
    void deepNestingIsRefused(int depth) {
        assertThatThrownBy(() -> Json.parse("[".repeat(depth) + "]".repeat(depth)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nested too deeply");
    }
}
