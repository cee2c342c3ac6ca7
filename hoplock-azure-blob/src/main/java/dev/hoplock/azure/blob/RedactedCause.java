package dev.hoplock.azure.blob;

import org.jspecify.annotations.Nullable;

/**
 * Stands in for a third-party exception whose message (or that of an exception in its cause chain) carries a secret,
 * a SAS in a request URL for example: same stack trace, same chain shape, every message {@linkplain Redaction#clean
 * cleaned}, and {@link #toString()} naming the original type, so a log line still says what failed and where.
 */
final class RedactedCause extends Exception {

    private static final long serialVersionUID = 1L;

    private final String originalType;

    private RedactedCause(String originalType, String message, @Nullable Throwable cause) {
        super(message, cause, true, true);
        this.originalType = originalType;
    }

    /** The redacted copy of {@code e}, its causes and suppressed exceptions. */
    static RedactedCause of(Throwable e, Redaction redaction) {
        return copy(e, redaction, 0);
    }

    private static RedactedCause copy(Throwable e, Redaction redaction, int depth) {
        Throwable cause = e.getCause();
        RedactedCause next = cause == null || cause == e || depth > 32 ? null : copy(cause, redaction, depth + 1);
        RedactedCause copy = new RedactedCause(e.getClass().getName(), redaction.clean(e.getMessage()), next);
        copy.setStackTrace(e.getStackTrace());
        if (depth <= 32) {
            for (Throwable suppressed : e.getSuppressed()) {
                copy.addSuppressed(copy(suppressed, redaction, depth + 1));
            }
        }
        return copy;
    }

    /** The class name of the exception this one stands in for. */
    String originalType() {
        return originalType;
    }

    @Override
    public String toString() {
        String message = getMessage();
        return message == null || message.isEmpty() ? originalType : originalType + ": " + message;
    }
}
