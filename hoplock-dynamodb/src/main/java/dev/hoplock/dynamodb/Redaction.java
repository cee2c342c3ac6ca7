package dev.hoplock.dynamodb;

import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Cleans text that came from a server or the SDK before it goes into one of our messages: removes the configured
 * secrets wherever they appear, blanks out anything that looks like an access key id, a signature or a session token
 * (in case a server echoes request headers), and shortens it.
 */
final class Redaction {

    static final int MAX_LENGTH = 300;

    private static final Pattern SIGNATURE =
            Pattern.compile("(?i)(signature|x-amz-security-token|credential)[=:]\\s*\\S+");
    private static final Pattern ACCESS_KEY_ID = Pattern.compile("\\b(AKIA|ASIA|AROA|AIDA)[A-Z0-9]{12,}\\b");
    private static final Pattern LONG_TOKEN = Pattern.compile("[A-Za-z0-9+/=_-]{40,}");

    private final List<String> secrets;

    /** @param secrets the exact strings never to show (a secret key, a session token); nulls and blanks are ignored */
    Redaction(List<@Nullable String> secrets) {
        this.secrets = secrets.stream().filter(Objects::nonNull).map(String::strip).filter(s -> s.length() >= 3)
                .toList();
    }

    static Redaction none() {
        return new Redaction(List.of());
    }

    /** {@code text} without secrets, at most {@link #MAX_LENGTH} characters; empty for null. */
    String clean(@Nullable String text) {
        if (text == null) {
            return "";
        }
        String cleaned = text;
        for (String secret : secrets) {
            cleaned = cleaned.replace(secret, "[redacted]");
        }
        cleaned = SIGNATURE.matcher(cleaned).replaceAll("$1=[redacted]");
        cleaned = ACCESS_KEY_ID.matcher(cleaned).replaceAll("[redacted]");
        cleaned = LONG_TOKEN.matcher(cleaned).replaceAll("[redacted]");
        cleaned = cleaned.replaceAll("\\s+", " ").strip();
        return cleaned.length() <= MAX_LENGTH ? cleaned : cleaned.substring(0, MAX_LENGTH) + "...";
    }
}
