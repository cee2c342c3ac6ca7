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
 * A {@link Backend} that times every request of its delegate as {@value #METER}, tagged {@code primitive}
 * ({@code election}, {@code lock}, {@code ownership}), {@code name} (the election's name, {@code locks}, the ownership
 * group's name), {@code operation} ({@code read}, {@code write}, {@code delete}) and {@code outcome}.
 *
 * <p>Outcomes: {@code found} / {@code absent} (read), {@code written} (write), {@code deleted} (delete),
 * {@code precondition_failed} and {@code not_found} (refused writes and deletes), and {@code error} (no answer: the
 * delegate threw). Every timer of its tags is registered when the backend is made, so each reads 0 until its first
 * request. Guarantees: every call and its result or exception pass through unchanged; the timer never changes an
 * outcome. Composable: it wraps any backend, including another decorator.
 */
public final class MeteredBackend extends DelegatingBackend {

    /** The timer's name. */
    public static final String METER = "hoplock.backend.requests";

    private final Timer readFound;
    private final Timer readAbsent;
    private final Timer readError;
    private final Timer written;
    private final Timer writePreconditionFailed;
    private final Timer writeNotFound;
    private final Timer writeError;
    private final Timer deleted;
    private final Timer deletePreconditionFailed;
    private final Timer deleteNotFound;
    private final Timer deleteError;
    private final MeterRegistry registry;

    /** Times the requests of the election {@code election}. */
    public MeteredBackend(Backend delegate, MeterRegistry registry, String election) {
        this(delegate, registry, BackendDecorator.Primitive.ELECTION, election);
    }

    /** Times the requests of {@code primitive} called {@code name}. */
    public MeteredBackend(Backend delegate, MeterRegistry registry, BackendDecorator.Primitive primitive,
            String name) {
        super(delegate);
        this.registry = Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(primitive, "primitive");
        Objects.requireNonNull(name, "name");
        readFound = timer(registry, primitive, name, "read", "found");
        readAbsent = timer(registry, primitive, name, "read", "absent");
        readError = timer(registry, primitive, name, "read", "error");
        written = timer(registry, primitive, name, "write", "written");
        writePreconditionFailed = timer(registry, primitive, name, "write", "precondition_failed");
        writeNotFound = timer(registry, primitive, name, "write", "not_found");
        writeError = timer(registry, primitive, name, "write", "error");
        deleted = timer(registry, primitive, name, "delete", "deleted");
        deletePreconditionFailed = timer(registry, primitive, name, "delete", "precondition_failed");
        deleteNotFound = timer(registry, primitive, name, "delete", "not_found");
        deleteError = timer(registry, primitive, name, "delete", "error");
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        Timer.Sample sample = Timer.start(registry);
        Timer outcome = readError;
        try {
            Optional<StoredObject> result = delegate.read(key, timeout);
            outcome = result.isPresent() ? readFound : readAbsent;
            return result;
        } finally {
            sample.stop(outcome);
        }
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        Timer.Sample sample = Timer.start(registry);
        Timer outcome = writeError;
        try {
            WriteResult result = delegate.write(key, expected, content, timeout);
            outcome = result instanceof WriteResult.Refused refused
                    ? refused.reason() == WriteResult.Refusal.NOT_FOUND ? writeNotFound : writePreconditionFailed
                    : written;
            return result;
        } finally {
            sample.stop(outcome);
        }
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        Timer.Sample sample = Timer.start(registry);
        Timer outcome = deleteError;
        try {
            DeleteResult result = delegate.delete(key, expected, timeout);
            outcome = switch (result) {
                case DELETED -> deleted;
                case PRECONDITION_FAILED -> deletePreconditionFailed;
                case NOT_FOUND -> deleteNotFound;
            };
            return result;
        } finally {
            sample.stop(outcome);
        }
    }

    private static Timer timer(MeterRegistry registry, BackendDecorator.Primitive primitive, String name,
            String operation, String outcome) {
        return Timer.builder(METER)
                .description("Requests of hoplock's elections, named locks and ownership group to the lease store")
                .tag("primitive", primitive.tag())
                .tag("name", name)
                .tag("operation", operation)
                .tag("outcome", outcome)
                .register(registry);
    }

    @Override
    public String toString() {
        return "MeteredBackend[" + delegate + "]";
    }
}
