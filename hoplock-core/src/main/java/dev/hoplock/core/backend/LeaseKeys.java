package dev.hoplock.core.backend;

import java.util.regex.Pattern;

/**
 * The one rule for lease keys, shared by every backend so that a key valid for one store is valid for all:
 * 1 to 512 characters, segments of {@code [A-Za-z0-9._-]} separated by single {@code /}, and no segment that is
 * {@code .} or {@code ..}.
 */
public final class LeaseKeys {

    /** The longest key accepted. */
    public static final int MAX_LENGTH = 512;

    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._-]+");

    private LeaseKeys() {
    }

    /**
     * Returns {@code key} if it is valid.
     *
     * @throws IllegalArgumentException naming the key and the rule it breaks
     */
    public static String validate(String key) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("lease key must not be empty");
        }
        if (key.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("lease key is " + key.length() + " characters long; the limit is " + MAX_LENGTH);
        }
        for (String segment : key.split("/", -1)) {
            if (!SEGMENT.matcher(segment).matches() || segment.equals(".") || segment.equals("..")) {
                throw new IllegalArgumentException("lease key '" + key + "' is invalid: use segments of letters, digits,"
                        + " '.', '_' or '-' separated by single '/', with no empty, '.' or '..' segment");
            }
        }
        return key;
    }
}
