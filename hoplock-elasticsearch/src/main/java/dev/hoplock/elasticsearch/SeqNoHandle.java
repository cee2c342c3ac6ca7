package dev.hoplock.elasticsearch;

import dev.hoplock.core.backend.Handle;
import org.jspecify.annotations.Nullable;

import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A document version as a {@link Handle}: {@code <_seq_no>:<_primary_term>:<write id>}, for example
 * {@code 17:1:0f6c2d4e9a8b4c1d8e7f6a5b4c3d2e1f}.
 *
 * <p>Guarantees: a handle never repeats, also across a deletion and re-creation of the index. The sequence number and
 * primary term alone do not give that: they restart at {@code 0:1} in every new index, so a stale holder's
 * {@code if_seq_no}/{@code if_primary_term} from a deleted index matches a new holder's document in the re-created
 * one. The write id does: a random 128-bit id that the backend generates for every write and stores in the document
 * itself ({@link LeaseDocument#WRITE_ID}), and every conditional swap or delete is a scripted update that applies
 * only if the document holds exactly that id ({@link ConditionalUpdate}), checked on the primary shard in the same
 * step as the sequence number. A handle from an earlier incarnation of the index therefore never matches.
 *
 * <p>A document without a write id (written by hand, or by a hoplock before this one) has the handle
 * {@code <_seq_no>:<_primary_term>}, without a write id; a write conditional on it applies only to a document that
 * has no write id either, with that sequence number. That form is the one residual case the sequence number alone
 * decides: a stale handle of a document without a write id, against a document without one in a re-created index.
 */
record SeqNoHandle(long seqNo, long primaryTerm, @Nullable String writeId) {

    private static final Pattern FORM = Pattern.compile("([0-9]{1,18}):([0-9]{1,18})(?::([^\\s]+))?");

    /** A new random write id: 32 lower-case hex digits (128 random bits). */
    static String newWriteId() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    Handle handle() {
        return Handle.of(seqNo + ":" + primaryTerm + (writeId == null ? "" : ":" + writeId));
    }

    /** The query parameters of a request conditional on this version's sequence number and primary term. */
    String condition() {
        return "if_seq_no=" + seqNo + "&if_primary_term=" + primaryTerm;
    }

    /** The version in {@code handle}, or empty for a handle this backend did not make (it matches no document). */
    static Optional<SeqNoHandle> parse(Handle handle) {
        Matcher m = FORM.matcher(handle.value());
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new SeqNoHandle(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), m.group(3)));
    }
}
