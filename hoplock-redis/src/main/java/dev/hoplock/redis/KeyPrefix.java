package dev.hoplock.redis;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The prefix put before every lease key to form its Redis key. 1 to 200 characters of letters, digits and
 * {@code . _ - : / { }}: no spaces or control characters (they make keys hard to read and to type in
 * {@code redis-cli}), and no glob characters ({@code * ? [ ] \}), so that the least-privilege ACL key pattern
 * {@code ~<prefix>*} matches exactly hoplock's keys. A hash tag in it ({@code {hoplock}:}) puts every lease in one
 * cluster slot, which works but gives up spreading them over the masters.
 *
 * @param value the prefix as given
 */
record KeyPrefix(String value) {

    /** The default prefix. */
    static final String DEFAULT = "hoplock:";
    static final int MAX_LENGTH = 200;
    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9._:/{}-]+");
    static final String RULE = "1 to " + MAX_LENGTH + " characters of letters, digits and . _ - : / { } (no spaces,"
            + " no glob characters * ? [ ] \\, so that the ACL key pattern ~<prefix>* covers exactly hoplock's keys)";

    KeyPrefix {
        if (value.isEmpty() || value.length() > MAX_LENGTH || !ALLOWED.matcher(value).matches()) {
            throw new IllegalArgumentException("the key prefix '" + printable(value) + "' is invalid: use " + RULE);
        }
    }

    /** The Redis key of {@code leaseKey} (already validated): the prefix followed by the key, in UTF-8. */
    byte[] redisKey(String leaseKey) {
        return (value + leaseKey).getBytes(StandardCharsets.UTF_8);
    }

    /** The ACL key pattern that covers exactly the keys under this prefix. */
    String aclPattern() {
        return "~" + value + "*";
    }

    /** {@code value} with control characters shown as {@code \\uXXXX}, for messages. */
    static String printable(String value) {
        StringBuilder shown = new StringBuilder();
        value.codePoints().limit(MAX_LENGTH + 20L).forEach(c -> {
            if (Character.isISOControl(c)) {
                shown.append(String.format("\\u%04x", c));
            } else {
                shown.appendCodePoint(c);
            }
        });
        return shown.toString();
    }

    @Override
    public String toString() {
        return value;
    }
}
