package dev.hoplock.spring.leader;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link Backend} that times every request of its delegate as {@value #METER}, tagged {@code election},
 * {@code operation} ({@code read}, {@code write}, {@code delete}) and {@code outcome}.
 *
 * <p>Outcomes: {@code found} / {@code absent} (read), {@code written} (write), {@code deleted} (delete),
 * {@code precondition_failed} and {@code not_found} (refused writes and deletes), and {@code error} (no answer: the
 * delegate threw). Guarantees: every call and its result or exception pass through unchanged; the timer never
 * changes an outcome. Composable: it wraps any backend, including another decorator.
 */
public final class MeteredBackend extends DelegatingBackend {

    /** The timer's name. */
    public static final String METER = "hoplock.backend.requests";

    private final MeterRegistry registry;
    private final String election;

    public MeteredBackend(Backend delegate, MeterRegistry registry, String election) {
        super(delegate);
        this.registry = Objects.requireNonNull(registry, "registry");
        this.election = Objects.requireNonNull(election, "election");
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        Timer.Sample sample = Timer.start(registry);
        String outcome = "error";
        try {
            Optional<StoredObject> result = delegate.read(key, timeout);
            outcome = result.isPresent() ? "found" : "absent";
            return result;
        } finally {
            sample.stop(timer("read", outcome));
        }
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        Timer.Sample sample = Timer.start(registry);
        String outcome = "error";
        try {
            WriteResult result = delegate.write(key, expected, content, timeout);
            outcome = result instanceof WriteResult.Refused refused ? refusal(refused.reason()) : "written";
            return result;
        } finally {
            sample.stop(timer("write", outcome));
        }
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        Timer.Sample sample = Timer.start(registry);
        String outcome = "error";
        try {
            DeleteResult result = delegate.delete(key, expected, timeout);
            outcome = switch (result) {
                case DELETED -> "deleted";
                case PRECONDITION_FAILED -> "precondition_failed";
                case NOT_FOUND -> "not_found";
            };
            return result;
        } finally {
            sample.stop(timer("delete", outcome));
        }
    }

    private static String refusal(WriteResult.Refusal reason) {
        return reason == WriteResult.Refusal.NOT_FOUND ? "not_found" : "precondition_failed";
    }

    private Timer timer(String operation, String outcome) {
        return Timer.builder(METER)
                .description("Requests of hoplock electors to the lease store")
                .tag("election", election)
                .tag("operation", operation)
                .tag("outcome", outcome)
                .register(registry);
    }

    @Override
    public String toString() {
        return "MeteredBackend[" + delegate + "]";
    }
}
