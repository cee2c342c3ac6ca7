package dev.hoplock.azure.blob;

import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cleans text that came from the service, the SDK or the HTTP client before it goes into one of our messages: removes
 * the configured secrets wherever they appear (an account key, a SAS token, a connection string), blanks out SAS
 * signatures, account keys and anything shaped like a key or a request signature (in case a server echoes what it
 * was sent, as Azure's {@code AuthenticationFailed} answer does with the request's signature), shows every URL without
 * its user info, query (a SAS) and fragment, and shortens it. Also makes a third-party exception safe to attach as a
 * cause ({@link #safeCause}).
 */
final class Redaction {

    static final int MAX_LENGTH = 300;

    /** {@code sig=...} of a SAS, {@code AccountKey=...} and {@code SharedAccessSignature=...} of a connection string. */
    private static final Pattern NAMED_SECRET =
            Pattern.compile("(?i)(sig|accountkey|sharedaccesssignature|signature)(\\s*[=:]\\s*)[^&;\\s'\"<]+");
    /** {@code Authorization: SharedKey account:signature} and bearer tokens. */
    private static final Pattern AUTHORIZATION =
            Pattern.compile("(?i)(sharedkey(lite)?\\s+[^:\\s]+:|bearer\\s+)\\S+");
    /** Base64 of 32 bytes and more: account keys, HMAC signatures, tokens. */
    private static final Pattern LONG_TOKEN = Pattern.compile("[A-Za-z0-9+/=_%-]{40,}");

    /** A URL, its query and fragment included (which run to the next blank or angle bracket). */
    private static final Pattern URL = Pattern.compile("(?i)https?://[^\\s\"'<>?#]+(?:[?#][^\\s<>]*)?");

    private final List<String> secrets;

    /** @param secrets the exact strings never to show (an account key, a SAS token); nulls and blanks are ignored */
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
        String cleaned = scrub(text).replaceAll("\\s+", " ").strip();
        return cleaned.length() <= MAX_LENGTH ? cleaned : cleaned.substring(0, MAX_LENGTH) + "...";
    }

    /**
     * {@code cause} itself when neither it nor any exception in its cause chain or among its suppressed exceptions has a
     * message that {@link #clean} would change; otherwise a {@linkplain RedactedCause copy} of the chain with cleaned
     * messages, naming the original types. For exceptions of the SDK or the HTTP client that may quote a request URL
     * (with its SAS) or a server's answer.
     */
    Throwable safeCause(Throwable cause) {
        return reveals(cause, 0) ? RedactedCause.of(cause, this) : cause;
    }

    private boolean reveals(@Nullable Throwable e, int depth) {
        if (e == null || depth > 32) {
            return false;
        }
        String message = e.getMessage();
        if (message != null && !scrub(message).equals(message)) {
            return true;
        }
        for (Throwable suppressed : e.getSuppressed()) {
            if (reveals(suppressed, depth + 1)) {
                return true;
            }
        }
        return e.getCause() != e && reveals(e.getCause(), depth + 1);
    }

    /** {@code text} with every secret and every URL's query removed; whitespace and length as they were. */
    private String scrub(String text) {
        String cleaned = text;
        for (String secret : secrets) {
            cleaned = cleaned.replace(secret, "[redacted]");
        }
        StringBuilder out = new StringBuilder(cleaned.length());
        Matcher url = URL.matcher(cleaned);
        int done = 0;
        while (url.find()) {
            out.append(scrubText(cleaned.substring(done, url.start()))).append(withoutQuery(url.group()));
            done = url.end();
        }
        return out.append(scrubText(cleaned.substring(done))).toString();
    }

    private static String scrubText(String text) {
        String cleaned = NAMED_SECRET.matcher(text).replaceAll("$1$2[redacted]");
        cleaned = AUTHORIZATION.matcher(cleaned).replaceAll("$1[redacted]");
        return LONG_TOKEN.matcher(cleaned).replaceAll("[redacted]");
    }

    /** {@code scheme://host[:port][/path]} of a URL, with {@code ?[redacted]} in place of a query or fragment. */
    private static String withoutQuery(String url) {
        int query = url.length();
        for (char c : new char[] {'?', '#'}) {
            int at = url.indexOf(c);
            query = at >= 0 ? Math.min(query, at) : query;
        }
        String base = url.substring(0, query).replaceFirst("//[^/]*@", "//");
        return query < url.length() ? base + "?[redacted]" : base;
    }
}
