package dev.hoplock.elasticsearch;

import dev.hoplock.core.backend.Handle;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A document version as a {@link Handle}: {@code <_seq_no>:<_primary_term>}, for example {@code 17:1}. Every write
 * to a shard gets a new sequence number, so every write of a key (also after a delete and a new create) gets a
 * new handle; the pair is what {@code if_seq_no} and {@code if_primary_term} compare.
 */
record SeqNoHandle(long seqNo, long primaryTerm) {

    private static final Pattern FORM = Pattern.compile("([0-9]{1,18}):([0-9]{1,18})");

    Handle handle() {
        return Handle.of(seqNo + ":" + primaryTerm);
    }

    /** The query parameters of a write or delete conditional on this version. */
    String condition() {
        return "if_seq_no=" + seqNo + "&if_primary_term=" + primaryTerm;
    }

    /** The version in {@code handle}, or empty for a handle this backend did not make (it matches no document). */
    static Optional<SeqNoHandle> parse(Handle handle) {
        Matcher m = FORM.matcher(handle.value());
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new SeqNoHandle(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
    }
}
