package dev.hoplock.core.ownership;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.time.VirtualTime;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cost model of the README, counted: store requests per hour of N members at the default TTL (30 s), once the
 * group is settled, while each member checks 10,000 keys per minute. The count depends on N only: 3 requests per
 * renew interval (10 s) per member (its lease renewal, a registry read, a read of the next member's lease), so
 * {@code 1,080 x N} per hour ({@code 720} for a single member, which watches nobody).
 */
class OwnershipCostTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 10, 30})
    void requestsPerHourGrowWithMembersNotKeys(int members) {
        VirtualTime time = new VirtualTime(Instant.parse("2026-12-01T00:00:00Z"));
        InMemoryBackend store = new InMemoryBackend();
        AtomicLong requests = new AtomicLong();
        AsyncBackend counted = counting(AsyncBackend.on(store, Runnable::run), requests);
        List<OwnershipGroup> groups = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            OwnershipGroup group = OwnershipGroup.builder(counted, "cost").memberId("m" + i).owner("p" + i)
                    .timeSource(time).scheduler(time).eventExecutor(Runnable::run).build();
            group.start();
            groups.add(group);
        }
        time.advance(Duration.ofMinutes(5));
        assertThat(groups).allMatch(OwnershipGroup::isMember);
        requests.set(0);
        long owned = 0;
        for (int minute = 0; minute < 60; minute++) {
            for (int k = 0; k < 10_000; k++) {
                for (OwnershipGroup group : groups) {
                    if (group.isOwner("key-" + k)) {
                        owned++;
                    }
                }
            }
            time.advance(Duration.ofMinutes(1));
        }
        assertThat(owned).as("every key owned once per minute").isEqualTo(60L * 10_000);
        long perHour = requests.get();
        long model = members == 1 ? 720 : 1_080L * members;
        System.out.printf("ownership cost: %d members, %d store requests in one hour (model %d)%n", members, perHour,
                model);
        assertThat(perHour).isBetween(model - model / 20, model + model / 20);
    }

    private static AsyncBackend counting(AsyncBackend inner, AtomicLong requests) {
        return new AsyncBackend() {
            @Override
            public CompletionStage<Optional<StoredObject>> read(String key, Duration timeout) {
                requests.incrementAndGet();
                return inner.read(key, timeout);
            }

            @Override
            public CompletionStage<WriteResult> write(String key, Handle expected, byte[] content, Duration timeout) {
                requests.incrementAndGet();
                return inner.write(key, expected, content, timeout);
            }

            @Override
            public CompletionStage<DeleteResult> delete(String key, Handle expected, Duration timeout) {
                requests.incrementAndGet();
                return inner.delete(key, expected, timeout);
            }

            @Override
            public String describe() {
                return "counting";
            }
        };
    }
}
