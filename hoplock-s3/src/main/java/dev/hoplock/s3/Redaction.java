package dev.hoplock.s3;

import org.jspecify.annotations.Nullable;
import java.util.regex.Pattern;

/**
 * Cleans text that came from a server before it goes into one of our messages: shortens it and blanks out anything
 * that looks like an access key id, a signature or a session token, in case a server echoes request headers.
 */
final class Redaction {

    static final int MAX_LENGTH = 300;

    private static final Pattern SIGNATURE =
            Pattern.compile("(?i)(signature|x-amz-security-token|credential)[=:]\\s*\\S+");
    private static final Pattern ACCESS_KEY_ID = Pattern.compile("\\b(AKIA|ASIA|AROA|AIDA)[A-Z0-9]{12,}\\b");
    private static final Pattern LONG_TOKEN = Pattern.compile("[A-Za-z0-9+/=_-]{40,}");

    private Redaction() {
    }

    /** {@code text} without secrets, at most {@link #MAX_LENGTH} characters; empty for null. */
    static String clean(@Nullable String text) {
        if (text == null) {
            return "";
        }
        String cleaned = SIGNATURE.matcher(text).replaceAll("$1=[redacted]");
        cleaned = ACCESS_KEY_ID.matcher(cleaned).replaceAll("[redacted]");
        cleaned = LONG_TOKEN.matcher(cleaned).replaceAll("[redacted]");
        cleaned = cleaned.replaceAll("\\s+", " ").strip();
        return cleaned.length() <= MAX_LENGTH ? cleaned : cleaned.substring(0, MAX_LENGTH) + "...";
    }
}
