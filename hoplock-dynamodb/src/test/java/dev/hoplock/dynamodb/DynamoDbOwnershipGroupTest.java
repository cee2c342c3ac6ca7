package dev.hoplock.dynamodb;

import dev.hoplock.dynamodb.emulator.Dynalite;
import dev.hoplock.dynamodb.emulator.DynaliteExtension;
import dev.hoplock.core.ownership.OwnershipClaim;
import dev.hoplock.core.ownership.OwnershipGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Per-key ownership over dynalite: three {@link OwnershipGroup} members in this JVM, each over its own backend on one
 * table, work on the keys they own; one leaves (close: deregister and release) and another joins. Every member's
 * worker opens a claim, works 30 ms and records the interval with the key's fencing token if the claim was still
 * valid at its end (so it was valid throughout). Checked: no two intervals of one key by different members overlap
 * (one JVM, one monotonic clock), the token rises at every change of owner and never falls for one owner, and every key
 * is worked on again after the departure.
 */
@ExtendWith(DynaliteExtension.class)
class DynamoDbOwnershipGroupTest {

    private static final Duration TTL = Duration.ofSeconds(2);
    private static final int KEYS = 8;
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final Dynalite dynalite;
    private final Map<String, OwnershipGroup> members = new LinkedHashMap<>();
    private final List<Interval> intervals = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService workers = Executors.newScheduledThreadPool(6);
    private final List<DynamoDbBackend> backends = new CopyOnWriteArrayList<>();
    private String table = "";

    record Interval(String key, long token, long start, long end, String member) {
    }

    DynamoDbOwnershipGroupTest(Dynalite dynalite) {
        this.dynalite = dynalite;
    }

    @AfterEach
    void stop() throws InterruptedException {
        workers.shutdownNow();
        workers.awaitTermination(10, TimeUnit.SECONDS);
        members.values().forEach(OwnershipGroup::close);
        backends.forEach(DynamoDbBackend::close);
    }

    @Test
    void everyKeyHasOneActingOwnerAtATimeAndTokensRiseAtEveryChange() {
        table = dynalite.newTable("ownership");
        join("m-a");
        join("m-b");
        join("m-c");
        long started = System.nanoTime();
        awaitEveryKeyWorkedAfter(started, "three members started");

        long left = System.nanoTime();
        Objects.requireNonNull(members.remove("m-b"), "m-b is a member").close();
        awaitEveryKeyWorkedAfter(left, "m-b left");
        join("m-d");
        long joined = System.nanoTime();
        await("m-d works on a key").atMost(PATIENCE)
                .until(() -> intervals.stream().anyMatch(i -> i.member().equals("m-d") && i.start() >= joined));
        awaitEveryKeyWorkedAfter(joined, "m-d joined");

        Map<String, List<Interval>> byKey = new TreeMap<>();
        intervals.forEach(i -> byKey.computeIfAbsent(i.key(), k -> new ArrayList<>()).add(i));
        assertThat(byKey).hasSize(KEYS);
        int changes = 0;
        for (List<Interval> list : byKey.values()) {
            list.sort(Comparator.comparingLong(Interval::start));
            for (int i = 1; i < list.size(); i++) {
                Interval before = list.get(i - 1);
                Interval after = list.get(i);
                if (!before.member().equals(after.member())) {
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
        assertThat(changes).as("keys that changed owner").isPositive();
        System.out.printf("ownership on dynalite: %d intervals, %d changes of owner%n", intervals.size(), changes);
    }

    private void join(String member) {
        DynamoDbBackend backend = TestDynamo.backend(dynalite, table, "");
        backends.add(backend);
        OwnershipGroup group = OwnershipGroup.builder(backend, "workers").memberId(member).owner(member)
                .address(member + ":0").ttl(TTL).pollInterval(TTL.dividedBy(10)).build();
        members.put(member, group);
        group.start();
        for (int i = 0; i < KEYS; i++) {
            String key = "key-" + i;
            workers.scheduleWithFixedDelay(() -> work(group, key, member), 0, 20, TimeUnit.MILLISECONDS);
        }
    }

    private void work(OwnershipGroup group, String key, String member) {
        Optional<OwnershipClaim> opened;
        try {
            opened = group.claim(key, true);
        } catch (RuntimeException closed) {
            return;
        }
        if (opened.isEmpty()) {
            return;
        }
        try (OwnershipClaim claim = opened.get()) {
            long start = System.nanoTime();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(30));
            long end = System.nanoTime();
            if (claim.isValid()) {
                intervals.add(new Interval(key, claim.token(), start, end, member));
            }
        }
    }

    private void awaitEveryKeyWorkedAfter(long after, String what) {
        await("every key worked on after " + what).atMost(PATIENCE)
                .until(() -> intervals.stream().filter(i -> i.start() >= after).map(Interval::key).distinct()
                        .count() == KEYS);
    }
}
