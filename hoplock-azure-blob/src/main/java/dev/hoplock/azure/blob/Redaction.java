package dev.hoplock.azure.blob;

import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Cleans text that came from the service, the SDK or the HTTP client before it goes into one of our messages: removes
 * the configured secrets wherever they appear (an account key, a SAS token, a connection string), blanks out SAS
 * signatures, account keys and anything shaped like a key or a request signature (in case a server echoes what it
 * was sent, as Azure's {@code AuthenticationFailed} answer does with the request's signature), and shortens it.
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
        String cleaned = text;
        for (String secret : secrets) {
            cleaned = cleaned.replace(secret, "[redacted]");
        }
        cleaned = NAMED_SECRET.matcher(cleaned).replaceAll("$1$2[redacted]");
        cleaned = AUTHORIZATION.matcher(cleaned).replaceAll("$1[redacted]");
        cleaned = LONG_TOKEN.matcher(cleaned).replaceAll("[redacted]");
        cleaned = cleaned.replaceAll("\\s+", " ").strip();
        return cleaned.length() <= MAX_LENGTH ? cleaned : cleaned.substring(0, MAX_LENGTH) + "...";
    }
}
