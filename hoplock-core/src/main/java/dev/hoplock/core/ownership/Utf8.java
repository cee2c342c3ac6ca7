package dev.hoplock.core.ownership;

import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;

/**
 * The one place where keys and member ids become the bytes that are hashed and compared: UTF-8, as Go's
 * {@code []byte(s)}. Text with an unpaired surrogate has no UTF-8 encoding ({@link String#getBytes} would silently
 * substitute '?', making two different keys hash alike and disagreeing with any other implementation), so it is refused.
 */
final class Utf8 {

    private Utf8() {
    }

    /** The UTF-8 bytes of {@code text}; {@code what} names it in the error ("key", "member id"). */
    static byte[] encode(String what, String text) {
        requireWellFormed(what, text);
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static void requireWellFormed(String what, @Nullable String text) {
        if (text == null) {
            throw new NullPointerException(what + " is null");
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(String.format("%s has an unpaired surrogate (U+%04X) at index %d: it"
                        + " has no UTF-8 encoding, so it cannot be hashed the same way in every language; pass"
                        + " well-formed text", what, (int) c, i));
            }
        }
    }
}
