package dev.hoplock.elasticsearch;

import org.jspecify.annotations.Nullable;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Cleans text that came from a server or an HTTP library before it goes into one of our messages: removes the
 * configured secrets wherever they appear (in case something echoes a request header), blanks out anything that
 * looks like a token, and shortens it.
 */
final class Redaction {

    static final int MAX_LENGTH = 300;

    private static final Pattern LONG_TOKEN = Pattern.compile("[A-Za-z0-9+/=_-]{40,}");
    private static final Pattern AUTHORIZATION =
            Pattern.compile("(?i)(authorization|apikey|api_key|password|basic|bearer)([\"']?\\s*[=:]?\\s*)\\S+");

    private final List<String> secrets;

    /** @param secrets the exact strings never to show (passwords, keys, header values); blanks are ignored */
    Redaction(List<String> secrets) {
        this.secrets = secrets.stream().filter(Objects::nonNull).filter(s -> s.length() >= 3).toList();
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
        cleaned = AUTHORIZATION.matcher(cleaned).replaceAll("$1$2[redacted]");
        cleaned = LONG_TOKEN.matcher(cleaned).replaceAll("[redacted]");
        cleaned = cleaned.replaceAll("\\s+", " ").strip();
        return cleaned.length() <= MAX_LENGTH ? cleaned : cleaned.substring(0, MAX_LENGTH) + "...";
    }
}
