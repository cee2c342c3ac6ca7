package dev.hoplock.nats;

import org.jspecify.annotations.Nullable;

import java.util.regex.Pattern;

/**
 * Cleans text before it goes into one of our messages: server URLs lose their user info ({@code nats://user:pass@host}
 * and {@code nats://token@host} become {@code nats://host}), and anything that looks like a JWT, an nkey seed or a long
 * token is blanked, in case a server or the client echoes one. Shortened to {@link #MAX_LENGTH} characters.
 */
final class Redaction {

    static final int MAX_LENGTH = 400;

    /**
     * The user info of a URL, up to its {@code @}: it may contain a {@code /} (a password or token as typed, not
     * encoded), so it ends only at blanks, commas (between the URLs of a server list) and brackets.
     */
    private static final Pattern USER_INFO = Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]*://)[^@\\s,\\[\\]]*@");
    private static final Pattern JWT = Pattern.compile("eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*");
    private static final Pattern NKEY_SEED = Pattern.compile("\\bS[A-Z][A-Z2-7]{50,}\\b");
    private static final Pattern LONG_TOKEN = Pattern.compile("[A-Za-z0-9+/=_-]{40,}");

    private Redaction() {
    }

    /** {@code text} without secrets, at most {@link #MAX_LENGTH} characters; empty for null. */
    static String clean(@Nullable String text) {
        if (text == null) {
            return "";
        }
        String cleaned = url(text);
        cleaned = JWT.matcher(cleaned).replaceAll("[redacted]");
        cleaned = NKEY_SEED.matcher(cleaned).replaceAll("[redacted]");
        cleaned = LONG_TOKEN.matcher(cleaned).replaceAll("[redacted]");
        cleaned = cleaned.replaceAll("\\s+", " ").strip();
        return cleaned.length() <= MAX_LENGTH ? cleaned : cleaned.substring(0, MAX_LENGTH) + "...";
    }

    /** {@code url} (or a text with URLs) without user info. */
    static String url(String url) {
        return USER_INFO.matcher(url).replaceAll("$1");
    }
}
