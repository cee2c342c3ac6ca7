package dev.hoplock.core.json;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The shared parser refuses anything that is not exactly one JSON value, and reads back what it writes. */
class JsonTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "{", "{\"a\":}", "{\"a\":1,}", "[1 2]", "{\"a\":1} x", "\"\\x\"", "01x", "tru",
            "{a:1}", "\"\u0001\"", "-", "1."})
    void invalidJsonIsRefusedWithThePosition(String text) {
        assertThatThrownBy(() -> Json.parse(text)).isInstanceOf(JsonSyntaxException.class)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid JSON at character");
    }

    @Test
    void theErrorNamesReasonAndPosition() {
        assertThatThrownBy(() -> Json.parse("{\"a\":}")).isInstanceOfSatisfying(JsonSyntaxException.class, e -> {
            assertThat(e.position()).isEqualTo(5);
            assertThat(e.reason()).isEqualTo("unexpected character");
            assertThat(e).hasMessage("invalid JSON at character 5: unexpected character");
        });
    }

    @ParameterizedTest
    @ValueSource(ints = {Json.MAX_DEPTH + 2})
    void deepNestingIsRefused(int depth) {
        assertThatThrownBy(() -> Json.parse("[".repeat(depth) + "]".repeat(depth)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nested too deeply");
    }

    private static Json.NumberLiteral number(Map<String, Object> members, String name) {
        return (Json.NumberLiteral) requireNonNull(members.get(name), () -> "no member " + name);
    }

    @Test
    void numbersKeepTheirText() {
        Map<String, Object> members = Json.parseObject("{\"a\":1e3,\"b\":-0.50,\"c\":7}");

        assertThat(members).containsExactly(Map.entry("a", new Json.NumberLiteral("1e3")),
                Map.entry("b", new Json.NumberLiteral("-0.50")), Map.entry("c", new Json.NumberLiteral("7")));
        assertThat(number(members, "a").value()).isEqualByComparingTo(new BigDecimal(1000));
        assertThat(number(members, "a").isIntegerLiteral()).isFalse();
        assertThat(number(members, "c").isIntegerLiteral()).isTrue();
        assertThat(Json.write(members)).isEqualTo("{\"a\":1e3,\"b\":-0.50,\"c\":7}");
    }

    @Test
    void aRepeatedMemberKeepsItsLastValueAtItsLastPlace() {
        assertThat(Json.parseObject("{\"a\":1,\"b\":true,\"a\":\"x\"}"))
                .containsExactly(Map.entry("b", true), Map.entry("a", "x"));
    }

    @Test
    void valuesOfEveryKindAreRead() {
        assertThat(Json.parse(" [\"s\\u00e9\\n\", true, false, null, {}, []] "))
                .isEqualTo(Arrays.asList("s\u00e9\n", true, false, null, Map.of(), List.of()));
    }

    @Test
    void quotedStringsReadBackUnchanged() {
        String text = "a\"b\\c\n\t\u0001<&>\ud83d\ude00 lone \ud800 end";

        assertThat(Json.parse(Json.quote(new StringBuilder(), text).toString())).isEqualTo(text);
    }

    @Test
    void quotingAsGoEscapesHtmlCharacters() {
        assertThat(Json.quoteAsGo(new StringBuilder(), "<a & b>").toString())
                .isEqualTo("\"\\u003ca \\u0026 b\\u003e\"");
        assertThat(Json.quote(new StringBuilder(), "<a & b>").toString()).isEqualTo("\"<a & b>\"");
    }
}
