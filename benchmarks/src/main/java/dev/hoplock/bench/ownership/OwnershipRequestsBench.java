package dev.hoplock.bench.ownership;

import dev.hoplock.bench.common.Results;
import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.core.time.VirtualTime;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Store requests per hour of an ownership group of N members at the default TTL (30 s), counted in virtual time (an
 * hour of the group's own timers, run as fast as the machine can), once the group is settled, while every member
 * checks K distinct keys per minute. Rows for N = 1, 3, 10, 30, 100 at K = 1,000, and N = 10 at K = 0 and 10,000 to
 * show that the keys do not matter. Writes {@code ownership-requests.csv}.
 */
public final class OwnershipRequestsBench {

    private OwnershipRequestsBench() {
    }

    public static void main(String[] args) {
        List<List<?>> rows = new ArrayList<>();
        int[][] runs = {{1, 1_000}, {3, 1_000}, {10, 0}, {10, 1_000}, {10, 10_000}, {30, 1_000}, {100, 1_000}};
        for (int[] run : runs) {
            long perHour = hour(run[0], run[1]);
            long model = run[0] == 1 ? 720 : 1_080L * run[0];
            rows.add(List.of(run[0], run[1], perHour, model));
            System.out.printf("%d members, %d keys checked per minute per member: %d store requests in one hour"
                    + " (model %d)%n", run[0], run[1], perHour, model);
        }
        Results.writeCsv("ownership-requests.csv", List.of("members", "keys_per_minute", "requests_per_hour",
                "model"), rows);
    }

    private static long hour(int members, int keys) {
        VirtualTime time = new VirtualTime(Instant.parse("2026-12-01T00:00:00Z"));
        AtomicLong requests = new AtomicLong();
        AsyncBackend counted = counting(AsyncBackend.on(new InMemoryBackend(), Runnable::run), requests);
        List<OwnershipGroup> groups = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            OwnershipGroup group = OwnershipGroup.builder(counted, "cost").memberId("m" + i).owner("p" + i)
                    .timeSource(time).scheduler(time).eventExecutor(Runnable::run).build();
            group.start();
            groups.add(group);
        }
        time.advance(Duration.ofMinutes(10));
        if (!groups.stream().allMatch(OwnershipGroup::isMember)) {
            throw new IllegalStateException("the group of " + members + " did not settle in 10 minutes");
        }
        requests.set(0);
        for (int minute = 0; minute < 60; minute++) {
            for (int k = 0; k < keys; k++) {
                String key = "key-" + k;
                int owners = 0;
                for (OwnershipGroup group : groups) {
                    owners += group.isOwner(key) ? 1 : 0;
                }
                if (owners != 1) {
                    throw new IllegalStateException(key + " has " + owners + " acting owners");
                }
            }
            time.advance(Duration.ofMinutes(1));
        }
        return requests.get();
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
