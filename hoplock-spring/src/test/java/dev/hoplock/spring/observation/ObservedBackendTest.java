package dev.hoplock.spring.observation;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.spring.leader.BackendDecorator;
import dev.hoplock.spring.leader.MeteredBackend;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link ObservedBackend}: one {@code hoplock.store.request} observation per request, with the store kind (under any
 * other decorator), the primitive and name, the operation and the outcome, and never the lease key.
 */
class ObservedBackendTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static final byte[] CONTENT = "record".getBytes(StandardCharsets.UTF_8);

    private final TestObservationRegistry registry = TestObservationRegistry.create();

    @Test
    void everyRequestIsOneObservationWithTheStoreKindOperationAndOutcome() throws Exception {
        InMemoryBackend store = new InMemoryBackend();
        // Under another decorator (the meters' timer), as the starter applies them: the kind is still the store's.
        Backend observed = new ObservedBackend(new MeteredBackend(store,
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry(), BackendDecorator.Primitive.LOCK,
                "locks"), registry, BackendDecorator.Primitive.LOCK, "locks");

        assertThat(observed.read("locks/secret-tenant-42", TIMEOUT)).isEmpty();
        WriteResult written = observed.write("locks/secret-tenant-42", Handle.NONE, CONTENT, TIMEOUT);
        assertThat(written).isInstanceOf(WriteResult.Written.class);
        assertThat(observed.write("locks/secret-tenant-42", Handle.NONE, CONTENT, TIMEOUT))
                .isInstanceOf(WriteResult.Refused.class);
        Handle handle = ((WriteResult.Written) written).handle();
        assertThat(observed.delete("locks/secret-tenant-42", handle, TIMEOUT)).isEqualTo(DeleteResult.DELETED);
        observed.verify();

        assertThat(registry)
                .hasNumberOfObservationsWithNameEqualTo(HoplockObservations.STORE_REQUEST, 5)
                .forAllObservationsWithNameEqualTo(HoplockObservations.STORE_REQUEST, request -> request
                        .hasLowCardinalityKeyValue("store", "memory")
                        .hasLowCardinalityKeyValue("primitive", "lock")
                        .hasLowCardinalityKeyValue("name", "locks")
                        .doesNotHaveHighCardinalityKeyValueWithKey("key"))
                .hasAnObservation(o -> o.hasLowCardinalityKeyValue("operation", "read")
                        .hasLowCardinalityKeyValue("outcome", "applied").hasLowCardinalityKeyValue("result", "absent"))
                .hasAnObservation(o -> o.hasLowCardinalityKeyValue("operation", "write")
                        .hasLowCardinalityKeyValue("outcome", "applied").hasLowCardinalityKeyValue("result", "written"))
                .hasAnObservation(o -> o.hasLowCardinalityKeyValue("operation", "write")
                        .hasLowCardinalityKeyValue("outcome", "refused")
                        .hasLowCardinalityKeyValue("result", "precondition_failed"))
                .hasAnObservation(o -> o.hasLowCardinalityKeyValue("operation", "delete")
                        .hasLowCardinalityKeyValue("outcome", "applied").hasLowCardinalityKeyValue("result", "deleted"))
                .hasAnObservation(o -> o.hasLowCardinalityKeyValue("operation", "verify")
                        .hasLowCardinalityKeyValue("outcome", "applied"));
        assertThat(registry).hasHandledContextsThatSatisfy(contexts -> assertThat(contexts)
                .allSatisfy(context -> assertThat(context.getAllKeyValues().stream()
                        .map(keyValue -> keyValue.getValue())).noneMatch(value -> value.contains("tenant"))));
    }

    @Test
    void aWriteWithoutAnAnswerIsUnknownAndARequestIsTheParentOfTheStoreClientsObservations() {
        InMemoryBackend store = new InMemoryBackend();
        Backend failing = new Backend() {
            @Override
            public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
                return store.read(key, timeout);
            }

            @Override
            public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
                return store.delete(key, expected, timeout);
            }

            @Override
            public WriteResult write(String key, Handle expected, byte[] content, Duration timeout)
                    throws BackendException {
                // What a store client instrumented with observations does: its request is a child of ours.
                Observation.createNotStarted("http.client.requests", registry).observe(() -> { });
                throw new BackendException(BackendException.Kind.TRANSIENT, "connection reset (test)");
            }
        };
        Backend observed = new ObservedBackend(failing, registry, BackendDecorator.Primitive.ELECTION, "default");

        assertThatThrownBy(() -> observed.write("default", Handle.NONE, CONTENT, TIMEOUT))
                .isInstanceOf(BackendException.class).hasMessageContaining("connection reset");

        assertThat(registry).hasObservationWithNameEqualTo(HoplockObservations.STORE_REQUEST).that()
                .hasLowCardinalityKeyValue("store", "custom")
                .hasLowCardinalityKeyValue("primitive", "election")
                .hasLowCardinalityKeyValue("operation", "write")
                .hasLowCardinalityKeyValue("outcome", "unknown")
                .hasLowCardinalityKeyValue("result", "error")
                .hasError();
        assertThat(registry).hasObservationWithNameEqualTo("http.client.requests").that()
                .hasParentObservationContextMatching(parent -> HoplockObservations.STORE_REQUEST
                        .equals(parent.getName()));
    }

    @Test
    void theStoreKindIsNamedAfterTheInnermostBackendsClass() {
        assertThat(StoreKind.of(new InMemoryBackend())).isEqualTo("memory");
        assertThat(StoreKind.of(new OrdersBackend())).isEqualTo("orders");
        assertThat(List.of(StoreKind.of(new ObservedBackend(new OrdersBackend(), registry,
                BackendDecorator.Primitive.ELECTION, "default")))).containsExactly("orders");
    }

    /** An application's own store. */
    static final class OrdersBackend implements Backend {
        @Override
        public Optional<StoredObject> read(String key, Duration timeout) {
            return Optional.empty();
        }

        @Override
        public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) {
            return WriteResult.preconditionFailed();
        }

        @Override
        public DeleteResult delete(String key, Handle expected, Duration timeout) {
            return DeleteResult.NOT_FOUND;
        }
    }
}
