package dev.hoplock.s3;

/**
 * The one thing the backend knows about ETags besides equality: S3 sends them quoted ({@code "9b2cf5..."}), and some
 * S3-compatible stores compare {@code If-Match} against the bare value only.
 */
final class ETags {

    private ETags() {
    }

    /** True when {@code etag} is wrapped in double quotes with something between them. */
    static boolean isQuoted(String etag) {
        return etag.length() > 2 && etag.charAt(0) == '"' && etag.charAt(etag.length() - 1) == '"';
    }

    /** {@code etag} without its surrounding double quotes; unchanged when it is not {@linkplain #isQuoted quoted}. */
    static String bare(String etag) {
        return isQuoted(etag) ? etag.substring(1, etag.length() - 1) : etag;
    }
}
