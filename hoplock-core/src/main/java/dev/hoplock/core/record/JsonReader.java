package dev.hoplock.core.record;

import org.jspecify.annotations.Nullable;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A strict reader of one JSON object whose member values are kept as raw tokens. Nested objects and arrays are
 * validated and skipped, so unknown fields of any shape are accepted. Only what the lease codec needs.
 */
final class JsonReader {

    /** A member value: its JSON kind and, for strings, the decoded text; for numbers and literals, the raw text. */
    record Value(Kind kind, @Nullable String text) {
    }

    enum Kind { STRING, NUMBER, TRUE, FALSE, NULL, OBJECT, ARRAY }

    private final String in;
    private int pos;

    private JsonReader(String in) {
        this.in = in;
    }

    /** Parses a JSON object; keys are folded to lower case (Go matches them case-insensitively), last one wins. */
    static Map<String, Value> readObject(String json) throws MalformedLeaseRecordException {
        JsonReader reader = new JsonReader(json);
        reader.skipWhitespace();
        if (reader.pos >= json.length() || json.charAt(reader.pos) != '{') {
            throw new MalformedLeaseRecordException("not a JSON object");
        }
        Map<String, Value> members = reader.object(0);
        reader.skipWhitespace();
        if (reader.pos != json.length()) {
            throw reader.error("unexpected content after the JSON object");
        }
        return members;
    }

    private Map<String, Value> object(int depth) throws MalformedLeaseRecordException {
        if (depth > 32) {
            throw error("nested too deeply");
        }
        expect('{');
        Map<String, Value> members = new LinkedHashMap<>();
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            return members;
        }
        while (true) {
            skipWhitespace();
            String key = string();
            skipWhitespace();
            expect(':');
            skipWhitespace();
            members.put(key.toLowerCase(java.util.Locale.ROOT), value(depth));
            skipWhitespace();
            char c = next();
            if (c == '}') {
                return members;
            }
            if (c != ',') {
                throw error("expected ',' or '}'");
            }
        }
    }

    private Value value(int depth) throws MalformedLeaseRecordException {
        char c = peek();
        switch (c) {
            case '"':
                return new Value(Kind.STRING, string());
            case '{':
                object(depth + 1);
                return new Value(Kind.OBJECT, null);
            case '[':
                array(depth + 1);
                return new Value(Kind.ARRAY, null);
            case 't':
                literal("true");
                return new Value(Kind.TRUE, "true");
            case 'f':
                literal("false");
                return new Value(Kind.FALSE, "false");
            case 'n':
                literal("null");
                return new Value(Kind.NULL, "null");
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return new Value(Kind.NUMBER, number());
                }
                throw error("unexpected character '" + c + "'");
        }
    }

    private void array(int depth) throws MalformedLeaseRecordException {
        if (depth > 32) {
            throw error("nested too deeply");
        }
        expect('[');
        skipWhitespace();
        if (peek() == ']') {
            pos++;
            return;
        }
        while (true) {
            skipWhitespace();
            value(depth);
            skipWhitespace();
            char c = next();
            if (c == ']') {
                return;
            }
            if (c != ',') {
                throw error("expected ',' or ']'");
            }
        }
    }

    private String number() throws MalformedLeaseRecordException {
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
        return in.substring(start, pos);
    }

    private void digits() throws MalformedLeaseRecordException {
        int start = pos;
        while (pos < in.length() && in.charAt(pos) >= '0' && in.charAt(pos) <= '9') {
            pos++;
        }
        if (pos == start) {
            throw error("malformed number");
        }
    }

    private String string() throws MalformedLeaseRecordException {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw error("control character in string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (pos + 4 > in.length()) {
                        throw error("truncated \\u escape");
                    }
                    try {
                        out.append((char) Integer.parseInt(in.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException ex) {
                        throw error("malformed \\u escape");
                    }
                    pos += 4;
                }
                default -> throw error("unknown escape \\" + e);
            }
        }
    }

    private void literal(String word) throws MalformedLeaseRecordException {
        if (!in.startsWith(word, pos)) {
            throw error("unexpected literal");
        }
        pos += word.length();
    }

    private void skipWhitespace() {
        while (pos < in.length()) {
            char c = in.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private char peek() throws MalformedLeaseRecordException {
        if (pos >= in.length()) {
            throw error("unexpected end of input");
        }
        return in.charAt(pos);
    }

    private char next() throws MalformedLeaseRecordException {
        char c = peek();
        pos++;
        return c;
    }

    private void expect(char c) throws MalformedLeaseRecordException {
        if (next() != c) {
            pos--;
            throw error("expected '" + c + "'");
        }
    }

    private MalformedLeaseRecordException error(String what) {
        return new MalformedLeaseRecordException("not valid JSON: " + what + " at offset " + pos);
    }
}
