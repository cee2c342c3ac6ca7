package dev.hoplock.spring.observation;

import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.spring.ownership.HoplockOwnership;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link MembershipObservations}: a membership change adopted here is one {@code hoplock.membership.change}
 * observation with the group as its low-cardinality key and the epoch and the counts of keys and members as
 * high-cardinality keys; no key or member id is recorded.
 */
class MembershipObservationsTest {

    @Test
    void aMembershipChangeIsAnObservationWithTheEpochAndCountsNeverTheKeys() throws Exception {
        TestObservationRegistry registry = TestObservationRegistry.create();
        OwnershipGroup group = OwnershipGroup.builder(new InMemoryBackend(), "billing").memberId("member-a")
                .address("member-a:8080").owner("process-a").ttl(Duration.ofSeconds(2)).build();
        try (HoplockOwnership ownership = new HoplockOwnership(group)) {
            MembershipObservations observations = new MembershipObservations(registry, ownership);
            assertThat(ownership.isOwner("tenant-secret-7")).as("no view yet").isFalse();
            ownership.start();

            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(registry)
                    .hasObservationWithNameEqualTo(HoplockObservations.MEMBERSHIP_CHANGE).that()
                    .hasLowCardinalityKeyValue("primitive", "ownership")
                    .hasLowCardinalityKeyValue("group", "billing")
                    .hasHighCardinalityKeyValue("members", "1")
                    .hasHighCardinalityKeyValue("members.joined", "1")
                    .hasHighCardinalityKeyValue("keys.gained", "1")
                    .hasHighCardinalityKeyValue("keys.lost", "0")
                    .hasHighCardinalityKeyValueWithKey("epoch")
                    .hasBeenStopped());
            assertThat(registry).hasHandledContextsThatSatisfy(all -> assertThat(all).allSatisfy(observed ->
                    assertThat(observed.getAllKeyValues().stream().map(keyValue -> keyValue.getValue()))
                            .noneMatch(value -> value.contains("tenant") || value.contains("member-a"))));
            observations.destroy();
        }
    }
}
