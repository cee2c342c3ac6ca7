package dev.hoplock.spring.observation;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.core.time.VirtualTime;
import dev.hoplock.spring.leader.BackendDecorator;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.ownership.HoplockOwnership;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The observation conventions: an application's convention renames hoplock's observations and adds key values (as
 * Spring's own {@code ServerRequestObservationConvention} does), the default one keeps today's names and keys, a
 * global convention of the registry reaches the gates, and the ownership member's liveness lease is observed as an
 * election's term.
 */
class ObservationConventionsTest {

    /** An application's convention: its own name, hoplock's keys, and one more. */
    static final class RenamedStoreRequests extends DefaultStoreRequestObservationConvention {
        @Override
        public String getName() {
            return "billing.lease-store";
        }

        @Override
        public KeyValues getLowCardinalityKeyValues(StoreRequestObservationContext context) {
            return super.getLowCardinalityKeyValues(context).and("team", "billing");
        }
    }

    @Test
    void aStoreRequestConventionRenamesTheObservationAndAddsAKeyValueTheOutcomeStillArrives() throws Exception {
        TestObservationRegistry registry = TestObservationRegistry.create();
        Backend observed = new ObservedBackend(new InMemoryBackend(), registry, BackendDecorator.Primitive.LOCK,
                "locks", new RenamedStoreRequests());

        observed.write("locks/nightly", Handle.NONE, "x".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(1));

        assertThat(registry).hasObservationWithNameEqualTo("billing.lease-store").that()
                .hasContextualNameEqualTo("hoplock write")
                .hasLowCardinalityKeyValue("team", "billing")
                .hasLowCardinalityKeyValue("store", "memory")
                .hasLowCardinalityKeyValue("primitive", "lock")
                .hasLowCardinalityKeyValue("operation", "write")
                .hasLowCardinalityKeyValue("outcome", "applied")
                .hasLowCardinalityKeyValue("result", "written")
                .hasBeenStopped();
        assertThat(registry).hasNumberOfObservationsWithNameEqualTo(HoplockObservations.STORE_REQUEST, 0);
    }

    @Test
    void withoutAConventionTheDefaultKeepsTheNamesAndKeys() throws Exception {
        TestObservationRegistry registry = TestObservationRegistry.create();
        Backend observed = new ObservedBackend(new InMemoryBackend(), registry, BackendDecorator.Primitive.ELECTION,
                "default");

        observed.read("default", Duration.ofSeconds(1));

        assertThat(registry).hasObservationWithNameEqualTo(HoplockObservations.STORE_REQUEST).that()
                .hasContextualNameEqualTo("hoplock read")
                .hasLowCardinalityKeyValue("primitive", "election")
                .hasLowCardinalityKeyValue("name", "default")
                .hasLowCardinalityKeyValue("outcome", "applied")
                .hasLowCardinalityKeyValue("result", "absent")
                .doesNotHaveLowCardinalityKeyValueWithKey("team");
    }

    @Test
    void aGlobalConventionOfTheRegistryRenamesTheGatesObservations() throws Exception {
        TestObservationRegistry registry = TestObservationRegistry.create();
        registry.observationConfig().observationConvention(new DefaultLeaderOnlyObservationConvention() {
            @Override
            public String getName() {
                return "billing.leader-work";
            }
        });
        Method method = Object.class.getDeclaredMethod("toString");
        dev.hoplock.spring.internal.gate.GateObservations gates =
                new dev.hoplock.spring.internal.gate.GateObservations(() -> registry);

        gates.leaderOnly(registry, "default", method).observe(() -> { });
        gates.withLock(registry, method).observe(() -> { });

        assertThat(registry).hasObservationWithNameEqualTo("billing.leader-work").that()
                .hasLowCardinalityKeyValue("election", "default")
                .hasLowCardinalityKeyValue("method", "Object.toString");
        assertThat(registry).as("a convention of @LeaderOnly contexts only")
                .hasObservationWithNameEqualTo(HoplockObservations.WITH_LOCK).that()
                .hasContextualNameEqualTo("with-lock Object.toString");
    }

    @Test
    void theOwnershipMembersLivenessLeaseIsATermLikeAnElectionsAndEndsLostWhenItCannotBeRenewed() throws Exception {
        TestObservationRegistry registry = TestObservationRegistry.create();
        VirtualTime time = new VirtualTime(Instant.parse("2026-01-01T00:00:00Z"));
        Outage store = new Outage(new InMemoryBackend());
        OwnershipGroup group = OwnershipGroup.builder(store, "billing").memberId("member-a").owner("process-a")
                .ttl(Duration.ofSeconds(6)).timeSource(time).scheduler(time).ioExecutor(Runnable::run)
                .eventExecutor(Runnable::run).build();
        try (HoplockOwnership ownership = new HoplockOwnership(group)) {
            LeaseObservations observations = new LeaseObservations(registry, new HoplockElections(Map.of(), null),
                    null, ownership, new DefaultLeaseObservationConvention() {
                        @Override
                        public KeyValues getLowCardinalityKeyValues(LeaseObservationContext context) {
                            return super.getLowCardinalityKeyValues(context).and("team", "billing");
                        }
                    });
            ownership.start();
            time.advance(Duration.ofSeconds(1));
            time.advance(Duration.ofSeconds(6));   // renewed at least once
            assertThat(registry).hasObservationWithNameEqualTo(HoplockObservations.LEASE).that()
                    .hasLowCardinalityKeyValue("primitive", "ownership")
                    .hasLowCardinalityKeyValue("name", "billing")
                    .hasLowCardinalityKeyValue("acquisition", "free")
                    .hasLowCardinalityKeyValue("team", "billing")
                    .hasHighCardinalityKeyValueWithKey("generation")
                    .hasEvent(HoplockObservations.RENEWED.getName())
                    .isNotStopped();

            store.down = true;
            time.advance(Duration.ofSeconds(7));   // past the TTL without a renewal

            assertThat(registry).hasObservationWithNameEqualTo(HoplockObservations.LEASE).that()
                    .hasBeenStopped()
                    .hasLowCardinalityKeyValue("outcome", "lost")
                    .hasLowCardinalityKeyValue("cause", "deadline_passed");
            assertThat(registry).hasHandledContextsThatSatisfy(all -> assertThat(all).allSatisfy(observed ->
                    assertThat(observed.getAllKeyValues().stream().map(keyValue -> keyValue.getValue()))
                            .noneMatch(value -> value.contains("member-a") || value.contains("process-a"))));
            observations.destroy();
            store.down = false;
            group.closeAsync();
            time.advance(Duration.ofSeconds(30));
        }
    }

    /** The store, unreachable while {@link #down} is set. */
    private static final class Outage implements Backend {
        private final Backend delegate;
        volatile boolean down;

        Outage(Backend delegate) {
            this.delegate = delegate;
        }

        @Override
        public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
            check();
            return delegate.read(key, timeout);
        }

        @Override
        public WriteResult write(String key, Handle expected, byte[] content, Duration timeout)
                throws BackendException {
            check();
            return delegate.write(key, expected, content, timeout);
        }

        @Override
        public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
            check();
            return delegate.delete(key, expected, timeout);
        }

        @Override
        public String describe() {
            return "memory";
        }

        private void check() throws BackendException {
            if (down) {
                throw new BackendException(BackendException.Kind.UNREACHABLE, "the test's outage");
            }
        }
    }

}
