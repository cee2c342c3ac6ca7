package dev.hoplock.test.process;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One line a child process printed, as {@code key=value} fields separated by single spaces (values have no spaces).
 * A line that is not made of such fields is kept whole, as the one field {@code raw}, so that nothing a child printed
 * is lost from a failure message.
 *
 * @param fields the fields in the order they were printed (unmodifiable)
 */
public record KeyValueLine(Map<String, String> fields) {

    /** Copies {@code fields}, so that a line never changes after it was read. */
    public KeyValueLine {
        fields = Map.copyOf(fields);
    }

    /** Parses one printed line; never fails (see the class comment for lines that are not fields). */
    public static KeyValueLine parse(String text) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String token : text.strip().split(" ")) {
            int eq = token.indexOf('=');
            if (eq <= 0) {
                return new KeyValueLine(Map.of("raw", text));
            }
            fields.put(token.substring(0, eq), token.substring(eq + 1));
        }
        return new KeyValueLine(fields);
    }

    /** The {@code type} field, or "" when the line has none. */
    public String type() {
        return fields.getOrDefault("type", "");
    }

    /** Whether the line's {@code type} field is {@code type}. */
    public boolean is(String type) {
        return type.equals(fields.get("type"));
    }

    /** The {@code owner} field, or "" when the line has none. */
    public String owner() {
        return fields.getOrDefault("owner", "");
    }

    /**
     * The field {@code field} as a number.
     *
     * @throws NumberFormatException when the line has no such field or it is not a decimal {@code long}
     */
    public long number(String field) {
        return Long.parseLong(fields.get(field));
    }
}
