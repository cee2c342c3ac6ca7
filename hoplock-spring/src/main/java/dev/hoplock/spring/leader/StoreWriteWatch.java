package dev.hoplock.spring.leader;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.WriteResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches every election's writes and deletes, so that a store that answers reads but refuses every write (a
 * directory without write permission, a bucket policy without {@code s3:PutObject}) is not taken for a healthy one.
 * The elector's own status cannot tell: its last error is cleared by the next read that answers.
 *
 * <p>Guarantees: observes calls, never changes their outcome (a {@link BackendDecorator}). A <em>streak</em> of
 * failures begins with a write or delete that throws and ends with the next one that gets an answer (written, or a
 * refusal such as a lost race: the store did answer). The streak is logged once when it begins, again only when the
 * kind of failure changes, and once when writes succeed again, never once per attempt. Thread-safe; reads of
 * {@link #failing(String)} are lock-free.
 */
public final class StoreWriteWatch implements BackendDecorator {

    private static final Logger log = LoggerFactory.getLogger(StoreWriteWatch.class);

    /**
     * Writes of one election that keep failing.
     *
     * @param attempts         failed writes and deletes in a row
     * @param failingFor       time since the first failure of the streak
     * @param sinceLastFailure time since the latest failure
     * @param lastError        the latest failure's message (backends keep secrets out of it)
     */
    public record Streak(int attempts, Duration failingFor, Duration sinceLastFailure, String lastError) {
    }

    private record State(int attempts, long firstNanos, long lastNanos, BackendException.Kind kind, String error) {
    }

    private final Map<String, State> streaks = new ConcurrentHashMap<>();

    @Override
    public Backend decorate(String election, Backend backend) {
        return new Watched(election, backend);
    }

    /** The streak of failed writes of {@code election}, if its latest write or delete failed. */
    public Optional<Streak> failing(String election) {
        State state = streaks.get(election);
        if (state == null) {
            return Optional.empty();
        }
        long now = System.nanoTime();
        return Optional.of(new Streak(state.attempts(), Duration.ofNanos(Math.max(0, now - state.firstNanos())),
                Duration.ofNanos(Math.max(0, now - state.lastNanos())), state.error()));
    }

    private void answered(String election, Backend backend) {
        State ended = streaks.remove(election);
        if (ended != null) {
            log.info("hoplock: writes to {} for election '{}' get answers again, after {} failed in a row",
                    backend.describe(), election, ended.attempts());
        }
    }

    private void failed(String election, Backend backend, BackendException e) {
        long now = System.nanoTime();
        State[] previous = new State[1];
        String error = Objects.requireNonNull(e.getMessage(), "a BackendException always has a message");
        streaks.compute(election, (name, before) -> {
            previous[0] = before;
            return before == null ? new State(1, now, now, e.kind(), error)
                    : new State(before.attempts() + 1, before.firstNanos(), now, e.kind(), error);
        });
        State before = previous[0];
        if (before == null || before.kind() != e.kind()) {
            log.warn("hoplock: a write to {} for election '{}' failed ({}); logged again only when the failure"
                    + " changes or writes succeed: {}", backend.describe(), election,
                    e.kind().name().toLowerCase(java.util.Locale.ROOT), e.getMessage());
        }
    }

    /** One request to the store. */
    @FunctionalInterface
    private interface StoreCall<T> {
        T run() throws BackendException;
    }

    /** The decorated backend of one election. */
    private final class Watched extends DelegatingBackend {

        private final String election;

        Watched(String election, Backend delegate) {
            super(delegate);
            this.election = Objects.requireNonNull(election, "election");
        }

        @Override
        public WriteResult write(String key, Handle expected, byte[] content, Duration timeout)
                throws BackendException {
            return watched(() -> delegate.write(key, expected, content, timeout));
        }

        @Override
        public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
            return watched(() -> delegate.delete(key, expected, timeout));
        }

        /** Runs a write or delete, recording whether it got an answer. */
        private <T> T watched(StoreCall<T> call) throws BackendException {
            try {
                T result = call.run();
                answered(election, delegate);
                return result;
            } catch (BackendException e) {
                failed(election, delegate, e);
                throw e;
            }
        }

        @Override
        public String toString() {
            return "StoreWriteWatch[" + delegate + "]";
        }
    }
}
