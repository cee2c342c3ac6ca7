package dev.hoplock.nats;

import dev.hoplock.core.backend.LeaseKeys;
import dev.hoplock.core.InvalidSettingException;
import org.jspecify.annotations.Nullable;

import java.util.regex.Pattern;

/**
 * Where a lease key lives in the bucket: the bucket's stream and subjects, and the one mapping from lease keys to KV
 * keys.
 *
 * <p>The mapping: a lease key's {@code /} becomes {@code .} (a NATS subject token separator, so that a permission such
 * as {@code $KV.hoplock.billing.>} covers the lease keys under {@code billing/}), and a {@code .} inside a segment
 * becomes {@code =}, the one character NATS keys allow that lease keys never contain. So {@code billing/leader.v2}
 * is the KV key {@code billing.leader=v2}. The mapping is injective (two lease keys never share a KV key), and every
 * KV key it gives is valid for NATS (no empty token, no leading or trailing dot). The optional key prefix comes
 * first, as its own tokens: with prefix {@code app} the lease key {@code leader} is the KV key {@code app.leader}, the
 * subject {@code $KV.<bucket>.app.leader}.
 *
 * <p>{@link #probeKey()} contains {@code /}, which no mapped lease key does, so the start-up probe never touches a
 * lease. Immutable.
 */
final class KvKeys {

    /** A bucket name as NATS allows it. */
    static final Pattern BUCKET = Pattern.compile("[A-Za-z0-9_-]{1,200}");
    /** A key prefix: tokens of letters, digits, {@code _} and {@code -}, separated by single dots. */
    static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*");

    private final String bucket;
    private final String prefix;

    KvKeys(String bucket, @Nullable String prefix) {
        if (bucket == null || !BUCKET.matcher(bucket).matches()) {
            throw new InvalidSettingException("bucket", bucket, null,
                    "must be 1 to 200 letters, digits, '_' or '-' (a NATS key-value bucket name)",
                    "the NATS KV bucket name '" + bucket + "' is invalid: use 1 to 200 letters, digits, '_' or '-'");
        }
        String p = prefix == null ? "" : prefix.strip();
        if (!p.isEmpty() && (p.length() > 200 || !PREFIX.matcher(p).matches())) {
            throw new InvalidSettingException("keyPrefix", prefix, null,
                    "must be tokens of letters, digits, '_' or '-' separated by single dots, for example app.prod",
                    "the NATS key prefix '" + prefix + "' is invalid: use tokens of letters, digits, '_' or '-'"
                            + " separated by single dots, for example app.prod");
        }
        this.bucket = bucket;
        this.prefix = p;
    }

    String bucket() {
        return bucket;
    }

    String prefix() {
        return prefix;
    }

    /** The bucket's stream, {@code KV_<bucket>}. */
    String stream() {
        return "KV_" + bucket;
    }

    /** The subjects of a KV bucket's stream: {@code $KV.<bucket>.>}. */
    String streamSubject() {
        return "$KV." + bucket + ".>";
    }

    /** The KV key of {@code leaseKey} (validated by {@link LeaseKeys#validate}). */
    String kvKey(String leaseKey) {
        LeaseKeys.validate(leaseKey);
        String mapped = leaseKey.replace('.', '=').replace('/', '.');
        return prefix.isEmpty() ? mapped : prefix + "." + mapped;
    }

    /** The subject that holds {@code leaseKey}'s versions: {@code $KV.<bucket>.<kv key>}. */
    String subject(String leaseKey) {
        return "$KV." + bucket + "." + kvKey(leaseKey);
    }

    /** The KV key of the start-up probe; no lease key maps to it (it contains '/'). */
    String probeKey() {
        return (prefix.isEmpty() ? "" : prefix + ".") + "_hoplock/probe";
    }

    String probeSubject() {
        return "$KV." + bucket + "." + probeKey();
    }

    /** The subjects the key prefix covers, for permission messages: {@code $KV.<bucket>.<prefix>.>}. */
    String keySubjects() {
        return "$KV." + bucket + "." + (prefix.isEmpty() ? "" : prefix + ".") + ">";
    }
}
