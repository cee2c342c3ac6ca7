package dev.hoplock.core.election;

import dev.hoplock.core.time.TimeSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.jspecify.annotations.Nullable;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reports an elector's problems, as a log line and an {@link ElectionEvent.Problem}, once per cause.
 *
 * <p>Guarantees: a problem is identified by its kind and a stable cause given by the caller (for example the offending
 * record's owner and generation, or a request's operation and error {@linkplain #normalise normalised}, so that a
 * timeout whose text names a changing duration stays one cause). It is reported when first seen and again only after it was cleared: by
 * {@link #clear(ElectionEvent.ProblemKind)} once things are healthy again (an answer from the store clears
 * {@link ElectionEvent.ProblemKind#BACKEND_ERROR}) or {@link #clear(ElectionEvent.ProblemKind, String)} for one
 * cause. Not thread-safe: called under the elector's lock.
 */
final class ProblemReporter {

    private static final Logger log = LoggerFactory.getLogger(Elector.class);

    private final String key;
    private final TimeSource time;
    private final Consumer<ElectionEvent> publish;
    private final Set<String> reported = new HashSet<>();

    ProblemReporter(String key, TimeSource time, Consumer<ElectionEvent> publish) {
        this.key = key;
        this.time = time;
        this.publish = publish;
    }

    /** Logs a warning and publishes, unless this kind and cause was reported and not cleared since. */
    boolean report(ElectionEvent.ProblemKind kind, String cause, String message) {
        return report(kind, cause, message, false, null);
    }

    /** As {@link #report}, logged as an error (with {@code error}'s stack trace when not null). */
    boolean reportError(ElectionEvent.ProblemKind kind, String cause, String message, @Nullable Throwable error) {
        return report(kind, cause, message, true, error);
    }

    private boolean report(ElectionEvent.ProblemKind kind, String cause, String message, boolean asError,
                           @Nullable Throwable error) {
        if (!reported.add(kind + "|" + cause)) {
            log.debug("hoplock: {} (reported before)", message);
            return false;
        }
        if (asError) {
            log.error("hoplock: {}", message, error);
        } else {
            log.warn("hoplock: {}", message);
        }
        publish.accept(new ElectionEvent.Problem(key, time.wallNow(), kind, message));
        return true;
    }

    /** Re-arms every cause of {@code kind}: the next occurrence is reported again. */
    void clear(ElectionEvent.ProblemKind kind) {
        String prefix = kind + "|";
        reported.removeIf(entry -> entry.startsWith(prefix));
    }

    /** Re-arms one cause. */
    void clear(ElectionEvent.ProblemKind kind, String cause) {
        reported.remove(kind + "|" + cause);
    }

    /** A text with every number (durations, counts, timestamps) replaced by {@code #}, for causes built from text. */
    static String normalise(String cause) {
        return cause.replaceAll("[0-9]+([.,][0-9]+)?", "#");
    }
}
