package dev.hoplock.redis;

import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Cleans text from Lettuce or the server before it goes into one of our messages: blanks out the configured
 * password wherever it appears, the user part of any URI ({@code redis://user:password@host}), and an
 * {@code AUTH}/{@code HELLO ... AUTH} argument list in case a message echoes a command, and shortens it.
 */
final class Redaction {

    static final int MAX_LENGTH = 400;

    private static final Pattern USER_INFO = Pattern.compile("(?i)([a-z][a-z0-9+.-]*://)[^/@\\s]*@");
    private static final Pattern AUTH_ARGS = Pattern.compile("(?i)\\b(AUTH)\\s+\\S+(\\s+\\S+)?");

    private final List<String> secrets;

    /** @param secrets the secret values to blank out (empty ones are ignored) */
    Redaction(List<String> secrets) {
        this.secrets = secrets.stream().filter(s -> !s.isEmpty()).toList();
    }

    /** {@code text} without secrets, at most {@link #MAX_LENGTH} characters; empty for null. */
    String clean(@Nullable String text) {
        if (text == null) {
            return "";
        }
        String cleaned = text;
        for (String secret : secrets) {
            cleaned = cleaned.replace(secret, "***");
        }
        cleaned = USER_INFO.matcher(cleaned).replaceAll("$1");
        cleaned = AUTH_ARGS.matcher(cleaned).replaceAll("$1 ***");
        cleaned = cleaned.replaceAll("\\s+", " ").strip();
        return cleaned.length() <= MAX_LENGTH ? cleaned : cleaned.substring(0, MAX_LENGTH) + "...";
    }
}
