package dev.hoplock.spring.observation;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.spring.leader.BackendDecorator;
import dev.hoplock.spring.leader.DelegatingBackend;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;


/**
 * A {@link Backend} that makes one {@link HoplockObservations#STORE_REQUEST} observation of every request of its
 * delegate (and of its verification), with the low-cardinality keys {@code store} (the store kind),
 * {@code primitive}, {@code name} (as the meters tag them), {@code operation}, {@code outcome} and {@code result}
 * (see {@link HoplockObservations}), as {@link DefaultStoreRequestObservationConvention} names them; an application's
 * {@link StoreRequestObservationConvention} renames them or adds key values. The observation is current while the request runs, so a store client's own
 * observations (an HTTP client's, a database driver's) are its children.
 *
 * <p>Guarantees: every call and its result or exception pass through unchanged (a {@link BackendDecorator} may observe,
 * never change an outcome); the lease key, the record and the store's address are never recorded.
 */
public final class ObservedBackend extends DelegatingBackend {

    private static final String APPLIED = "applied";
    private static final String REFUSED = "refused";
    private static final String UNKNOWN = "unknown";
    private static final String ERROR = "error";
    private static final Ending FOUND = new Ending(APPLIED, "found");
    private static final Ending ABSENT = new Ending(APPLIED, "absent");
    private static final Ending WRITTEN = new Ending(APPLIED, "written");
    private static final Ending GONE = new Ending(APPLIED, "deleted");
    private static final Ending NOT_FOUND = new Ending(REFUSED, "not_found");
    private static final Ending PRECONDITION_FAILED = new Ending(REFUSED, "precondition_failed");
    private static final Ending VERIFIED = new Ending(APPLIED, "verified");

    private final ObservationRegistry registry;
    private final String store;
    private final String primitive;
    private final String name;
    private final @Nullable StoreRequestObservationConvention convention;

    /** Observes the requests of {@code primitive} called {@code name} through {@code registry}. */
    public ObservedBackend(Backend delegate, ObservationRegistry registry, BackendDecorator.Primitive primitive,
            String name) {
        this(delegate, registry, primitive, name, null);
    }

    /**
     * As above, with the application's {@code convention} (null: the registry's global one for these contexts, if
     * any, else {@link DefaultStoreRequestObservationConvention}).
     */
    public ObservedBackend(Backend delegate, ObservationRegistry registry, BackendDecorator.Primitive primitive,
            String name, @Nullable StoreRequestObservationConvention convention) {
        super(delegate);
        this.convention = convention;
        this.registry = Objects.requireNonNull(registry, "registry");
        this.primitive = Objects.requireNonNull(primitive, "primitive").tag();
        this.name = Objects.requireNonNull(name, "name");
        this.store = StoreKind.of(delegate);
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        return observe("read", ERROR, () -> delegate.read(key, timeout), answer -> answer.isPresent() ? FOUND : ABSENT);
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        return observe("write", UNKNOWN, () -> delegate.write(key, expected, content, timeout),
                answer -> answer instanceof WriteResult.Refused refused
                        ? refused.reason() == WriteResult.Refusal.NOT_FOUND ? NOT_FOUND : PRECONDITION_FAILED
                        : WRITTEN);
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        return observe("delete", UNKNOWN, () -> delegate.delete(key, expected, timeout), answer -> switch (answer) {
            case DELETED -> GONE;
            case PRECONDITION_FAILED -> ObservedBackend.PRECONDITION_FAILED;
            case NOT_FOUND -> ObservedBackend.NOT_FOUND;
        });
    }

    /** The store's verification (the S3 probe, for example): {@code applied} when the store could be asked. */
    @Override
    public StoreCapabilities verify() throws BackendException {
        return observe("verify", ERROR, delegate::verify, answer -> VERIFIED);
    }

    /** One store request of the delegate. */
    @FunctionalInterface
    private interface Request<T> {
        T send() throws BackendException;
    }

    /** The {@code outcome} and {@code result} an observation ends with. */
    private record Ending(String outcome, String result) {
    }

    /**
     * Runs {@code request} inside one observation of {@code operation}, current while it runs, and ends it with the
     * tags {@code ending} gives its answer, or, when it throws, {@code outcomeOnFailure} (whether a write or delete
     * that threw was applied is unknown) and {@code error}, the exception passing through unchanged.
     */
    private <T> T observe(String operation, String outcomeOnFailure, Request<T> request,
            Function<T, Ending> ending) throws BackendException {
        Observation observation = start(operation);
        Ending ended = new Ending(outcomeOnFailure, ERROR);
        try (Observation.Scope ignored = observation.openScope()) {
            T answer = request.send();
            ended = ending.apply(answer);
            return answer;
        } catch (Throwable e) {
            observation.error(e);
            throw e;
        } finally {
            stop(observation, ended.outcome(), ended.result());
        }
    }

    private Observation start(String operation) {
        return Observation.createNotStarted(convention, DefaultStoreRequestObservationConvention.INSTANCE,
                () -> new StoreRequestObservationContext(store, primitive, name, operation), registry).start();
    }

    private static void stop(Observation observation, String outcome, String result) {
        if (observation.getContext() instanceof StoreRequestObservationContext context) {
            context.setOutcome(outcome, result);
        }
        observation.stop();
    }

    /** The store kind this backend reports as {@code store}. */
    public String store() {
        return store;
    }

    @Override
    public String toString() {
        return "ObservedBackend[" + delegate + "]";
    }
}
