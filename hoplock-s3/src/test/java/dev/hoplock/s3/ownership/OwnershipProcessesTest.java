package dev.hoplock.s3.ownership;

import dev.hoplock.s3.server.S3MockExtension;
import dev.hoplock.s3.server.S3MockServer;
import dev.hoplock.s3.server.TestDirs;
import dev.hoplock.test.process.ForkedJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Several members of one ownership group, each in its own JVM, over the S3 test server: members are killed (kill -9)
 * and stopped (SIGTERM) and new ones started, while every member works on the keys it owns and records each interval
 * of acting ownership with the key's fencing token in a shared sink. Checked: no two intervals of one key by different
 * processes overlap (one machine, one wall clock), the token rises at every change of owner, and every key is worked
 * on again after each departure.
 */
@ExtendWith(S3MockExtension.class)
class OwnershipProcessesTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final int KEYS = 12;
    private static final Duration PATIENCE = Duration.ofSeconds(90);

    private final Map<String, ForkedJvm> processes = new LinkedHashMap<>();

    record Interval(String key, long token, long start, long end, String owner) {
    }

    @Test
    void everyKeyHasAtMostOneActingOwnerAndIsOwnedAgainAfterEachDeparture(S3MockServer server) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 8);
        Path dir = TestDirs.target().resolve("ownership-processes").resolve(run);
        Files.createDirectories(dir);
        String prefix = "t/ownership-" + run + "/";
        try {
            start(server, prefix, dir, "m-a", "m-a#1");
            start(server, prefix, dir, "m-b", "m-b#1");
            start(server, prefix, dir, "m-c", "m-c#1");
            long t0 = System.currentTimeMillis();
            awaitEveryKeyWorkedAfter(dir, t0, "three members started");
            awaitWorking(dir, List.of("m-a#1", "m-b#1", "m-c#1"));

            long killedAt = System.currentTimeMillis();
            processes.get("m-b#1").kill();
            long takeover = awaitKeysOfTakenOver(dir, "m-b#1", killedAt, "after kill -9 of m-b#1");
            awaitEveryKeyWorkedAfter(dir, killedAt + 1, "after kill -9 of m-b#1");

            start(server, prefix, dir, "m-d", "m-d#1");
            start(server, prefix, dir, "m-b", "m-b#2");
            awaitWorking(dir, List.of("m-a#1", "m-b#2", "m-d#1"));

            long stoppedAt = System.currentTimeMillis();
            processes.get("m-a#1").stop();
            long handover = awaitKeysOfTakenOver(dir, "m-a#1", stoppedAt, "after SIGTERM of m-a#1");
            assertThat(processes.get("m-a#1").awaitExit(TimeUnit.SECONDS.toMillis(30))).as("m-a#1 exits").isTrue();
            awaitEveryKeyWorkedAfter(dir, stoppedAt + 1, "after SIGTERM of m-a#1");

            List<Interval> intervals = read(dir);
            Map<String, List<Interval>> byKey = new TreeMap<>();
            for (Interval interval : intervals) {
                byKey.computeIfAbsent(interval.key(), k -> new ArrayList<>()).add(interval);
            }
            assertThat(byKey).hasSize(KEYS);
            int changes = 0;
            for (List<Interval> list : byKey.values()) {
                list.sort(Comparator.comparingLong(Interval::start));
                for (int i = 1; i < list.size(); i++) {
                    Interval before = list.get(i - 1);
                    Interval after = list.get(i);
                    if (!before.owner().equals(after.owner())) {
                        changes++;
                        assertThat(after.start()).as("%s starts after %s ended", after, before)
                                .isGreaterThanOrEqualTo(before.end());
                        assertThat(after.token()).as("token rises from %s to %s", before, after)
                                .isGreaterThan(before.token());
                    } else {
                        assertThat(after.token()).as("token of one owner never falls: %s, %s", before, after)
                                .isGreaterThanOrEqualTo(before.token());
                    }
                }
            }
            assertThat(changes).as("keys changed owner").isGreaterThanOrEqualTo(KEYS / 3);
            System.out.printf("ownership processes on S3Mock: %d intervals, %d changes of owner; the keys of the"
                    + " departed member worked on again %d ms after kill -9 (TTL %d ms), %d ms after SIGTERM%n",
                    intervals.size(), changes, takeover, TTL.toMillis(), handover);
        } finally {
            for (ForkedJvm process : processes.values()) {
                process.close();
            }
        }
    }

    private void start(S3MockServer server, String prefix, Path dir, String memberId, String owner)
            throws IOException {
        processes.put(owner, ForkedJvm.start(OwnershipProcessMain.class, owner, dir, Map.of(),
                List.of(server.endpoint().toString(), server.bucket(), prefix, memberId, owner,
                        Long.toString(TTL.toMillis()), dir.toString(), Integer.toString(KEYS)),
                line -> { }));
    }

    private void awaitEveryKeyWorkedAfter(Path dir, long after, String what) {
        await("every key worked on " + what + "; logs in " + dir).atMost(PATIENCE)
                .until(() -> read(dir).stream().filter(i -> i.start() >= after).map(Interval::key).distinct()
                        .count() == KEYS);
    }

    /** Waits until each of {@code owners} has worked on a key recently (within the last 2 s). */
    private void awaitWorking(Path dir, List<String> owners) {
        await(owners + " work on keys; logs in " + dir).atMost(PATIENCE)
                .until(() -> owners(dir, System.currentTimeMillis() - 2_000).containsAll(owners));
    }

    /**
     * Waits until every key {@code departed} worked on in its last 2 s before {@code at} has been worked on by another
     * process after {@code at}; returns how long after {@code at} the last of them was first worked on.
     */
    private long awaitKeysOfTakenOver(Path dir, String departed, long at, String what) throws IOException {
        List<String> keys = read(dir).stream().filter(i -> i.owner().equals(departed) && i.end() >= at - 2_000)
                .map(Interval::key).distinct().toList();
        assertThat(keys).as("keys %s worked on just before %s", departed, what).isNotEmpty();
        await("the keys " + keys + " of " + departed + " worked on again " + what + "; logs in " + dir)
                .atMost(PATIENCE).until(() -> read(dir).stream().filter(i -> i.start() >= at
                        && !i.owner().equals(departed)).map(Interval::key).distinct().toList().containsAll(keys));
        Map<String, Long> first = new TreeMap<>();
        for (Interval interval : read(dir)) {
            if (interval.start() >= at && !interval.owner().equals(departed) && keys.contains(interval.key())) {
                first.merge(interval.key(), interval.start(), Math::min);
            }
        }
        return first.values().stream().mapToLong(Long::longValue).max().orElseThrow() - at;
    }

    private static List<String> owners(Path dir, long after) throws IOException {
        return read(dir).stream().filter(i -> i.start() >= after).map(Interval::owner).distinct().toList();
    }

    private static List<Interval> read(Path dir) throws IOException {
        List<Interval> intervals = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".sink")).toList()) {
                String text = Files.readString(file);
                // A line still being appended has no newline yet: only complete lines count.
                String complete = text.substring(0, text.lastIndexOf('\n') + 1);
                for (String line : complete.split("\n")) {
                    String[] f = line.split(" ");
                    if (f.length == 5) {
                        intervals.add(new Interval(f[0], Long.parseLong(f[1]), Long.parseLong(f[2]),
                                Long.parseLong(f[3]), f[4]));
                    }
                }
            }
        }
        return intervals;
    }
}
