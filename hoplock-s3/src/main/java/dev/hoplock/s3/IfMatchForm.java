package dev.hoplock.s3;

/**
 * How the S3 backend writes an ETag into {@code If-Match}. S3 sends ETags quoted ({@code "9b2cf5..."}) and compares
 * them quoted; some S3-compatible stores (Ceph RGW, and reportedly Hetzner) compare only the bare value and answer
 * 412 to the quoted form.
 *
 * <p>Guarantees: the form is fixed per backend, chosen once (by {@link S3BackendBuilder#ifMatchForm(IfMatchForm)},
 * or by the {@link ConditionalWriteProbe} when the store is verified) and never changed per request. A per-request
 * fallback ("412 with the quoted ETag, so try it bare") is unsafe: a store or proxy that ignores a malformed
 * (unquoted) {@code If-Match} turns the retry into an unconditional write, and a stale writer wins.
 */
public enum IfMatchForm {

    /** The ETag exactly as the store sent it (quoted on S3, MinIO, R2, S3Mock). The default. */
    AS_RECEIVED,

    /** The ETag without its surrounding double quotes, for stores that compare only the bare value. */
    BARE;

    /** The {@code If-Match} value for {@code etag} in this form. */
    String apply(String etag) {
        if (this == BARE && etag.length() > 2 && etag.charAt(0) == '"' && etag.charAt(etag.length() - 1) == '"') {
            return etag.substring(1, etag.length() - 1);
        }
        return etag;
    }
}
