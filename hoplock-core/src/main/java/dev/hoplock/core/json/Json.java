package dev.hoplock.core.json;

import org.jspecify.annotations.Nullable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The small part of JSON hoplock needs, without a JSON library: a strict parser of whole documents into {@link Map}
 * (objects), {@link List}, {@link String}, {@link NumberLiteral}, {@link Boolean} and {@code null}, and a writer of
 * such values and of JSON strings.
 *
 * <p>Guarantees: {@link #parse} accepts only one complete JSON value (RFC 8259) and throws a
 * {@link JsonSyntaxException} naming the position otherwise; nesting deeper than {@value #MAX_DEPTH} is refused.
 * Objects keep their members in the order they appear; a member name that appears twice keeps its last value, at the
 * place of its last appearance. Numbers keep their text as written. {@link #write} writes parsed values back;
 * {@link #quote} writes any Java string (all code points, lone surrogates as {@code \\u} escapes) so that
 * {@link #parse} returns it unchanged; {@link #quoteAsGo} writes a string as Go's {@code encoding/json} does.
 * Stateless and thread-safe.
 */
public final class Json {

    /** The deepest nesting of objects and arrays {@link #parse} accepts. */
    public static final int MAX_DEPTH = 64;

    private final String in;
    private int pos;

    private Json(String in) {
        this.in = in;
    }

    /**
     * A JSON number, its text exactly as written (valid RFC 8259 number syntax).
     *
     * @param text the number's text, such as {@code 7}, {@code -0.5} or {@code 1e3}
     */
    public record NumberLiteral(String text) {

        /** The number's value. */
        public BigDecimal value() {
            return new BigDecimal(text);
        }

        /** True when the number is written as an integer (digits with an optional minus, no fraction or exponent). */
        public boolean isIntegerLiteral() {
            return text.matches("-?[0-9]+");
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /** Parses one JSON value. */
    public static @Nullable Object parse(String text) {
        Json json = new Json(text);
        json.whitespace();
        Object value = json.value(0);
        json.whitespace();
        if (json.pos != text.length()) {
            throw json.error("unexpected content after the JSON value");
        }
        return value;
    }

    /**
     * Parses one JSON object.
     *
     * @throws IllegalArgumentException when the text is not JSON ({@link JsonSyntaxException}) or not an object
     */
    @SuppressWarnings("unchecked")
    public static Map<String, @Nullable Object> parseObject(String text) {
        Object value = parse(text);
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException("not a JSON object");
        }
        return (Map<String, Object>) value;
    }

    /** Appends {@code value} as a JSON string literal that {@link #parse} reads back unchanged. */
    public static StringBuilder quote(StringBuilder out, String value) {
        return quote(out, value, false);
    }

    /**
     * Appends {@code value} as a JSON string literal the way Go's {@code encoding/json} writes it: {@code <}, {@code >}
     * and {@code &} as {@code \\u} escapes too (lease records are byte-compatible with Go hoplock's).
     */
    public static StringBuilder quoteAsGo(StringBuilder out, String value) {
        return quote(out, value, true);
    }

    /** Writes a value of the types {@link #parse} returns as JSON text. */
    public static String write(@Nullable Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value);
        return out.toString();
    }

    private static void write(StringBuilder out, @Nullable Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String string) {
            quote(out, string);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> member : map.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                quote(out, String.valueOf(member.getKey())).append(':');
                write(out, member.getValue());
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(out, list.get(i));
            }
            out.append(']');
        } else if (value instanceof NumberLiteral number) {
            out.append(number.text());
        } else if (value instanceof Boolean) {
            out.append(value);
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
        }
    }

    private static StringBuilder quote(StringBuilder out, String value, boolean asGo) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    boolean escaped = asGo ? c == '<' || c == '>' || c == '&'
                            : Character.isSurrogate(c) && !isPairedSurrogate(value, i);
                    if (c < 0x20 || escaped) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }

    private static boolean isPairedSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    private @Nullable Object value(int depth) {
        if (depth > MAX_DEPTH) {
            throw error("nested too deeply");
        }
        char c = peek();
        switch (c) {
            case '{':
                return object(depth);
            case '[':
                return array(depth);
            case '"':
                return string();
            case 't':
                literal("true");
                return Boolean.TRUE;
            case 'f':
                literal("false");
                return Boolean.FALSE;
            case 'n':
                literal("null");
                return null;
            default:
                if (c == '-' || c >= '0' && c <= '9') {
                    return number();
                }
                throw error("unexpected character");
        }
    }

    private Map<String, Object> object(int depth) {
        pos++;
        Map<String, Object> members = new LinkedHashMap<>();
        whitespace();
        if (peek() == '}') {
            pos++;
            return members;
        }
        while (true) {
            whitespace();
            if (peek() != '"') {
                throw error("expected a member name");
            }
            String name = string();
            whitespace();
            expect(':');
            whitespace();
            Object value = value(depth + 1);
            members.remove(name);
            members.put(name, value);
            whitespace();
            char c = next();
            if (c == '}') {
                return members;
            }
            if (c != ',') {
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array(int depth) {
        pos++;
        List<Object> items = new ArrayList<>();
        whitespace();
        if (peek() == ']') {
            pos++;
            return items;
        }
        while (true) {
            whitespace();
            items.add(value(depth + 1));
            whitespace();
            char c = next();
            if (c == ']') {
                return items;
            }
            if (c != ',') {
                throw error("expected ',' or ']'");
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw error("control character in a string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char escape = next();
            switch (escape) {
                case '"', '\\', '/' -> out.append(escape);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (pos + 4 > in.length()) {
                        throw error("incomplete \\u escape");
                    }
                    try {
                        out.append((char) Integer.parseInt(in.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException e) {
                        throw error("invalid \\u escape");
                    }
                    pos += 4;
                }
                default -> throw error("invalid escape");
            }
        }
    }

    private NumberLiteral number() {
        int start = pos;
        if (peek() == '-') {
            pos++;
        }
        if (peek() == '0') {
            pos++;
        } else {
            digits();
        }
        if (pos < in.length() && in.charAt(pos) == '.') {
            pos++;
            digits();
        }
        if (pos < in.length() && (in.charAt(pos) == 'e' || in.charAt(pos) == 'E')) {
            pos++;
            if (pos < in.length() && (in.charAt(pos) == '+' || in.charAt(pos) == '-')) {
                pos++;
            }
            digits();
        }
        return new NumberLiteral(in.substring(start, pos));
    }

    private void digits() {
        int start = pos;
        while (pos < in.length() && in.charAt(pos) >= '0' && in.charAt(pos) <= '9') {
            pos++;
        }
        if (pos == start) {
            throw error("expected a digit");
        }
    }

    private void literal(String word) {
        if (!in.startsWith(word, pos)) {
            throw error("unexpected character");
        }
        pos += word.length();
    }

    private void whitespace() {
        while (pos < in.length()) {
            char c = in.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private void expect(char c) {
        if (next() != c) {
            throw error("expected '" + c + "'");
        }
    }

    private char peek() {
        if (pos >= in.length()) {
            throw error("unexpected end of input");
        }
        return in.charAt(pos);
    }

    private char next() {
        char c = peek();
        pos++;
        return c;
    }

    private JsonSyntaxException error(String what) {
        return new JsonSyntaxException(what, pos);
    }
}
