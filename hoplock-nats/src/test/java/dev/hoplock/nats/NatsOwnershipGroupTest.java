package dev.hoplock.nats;

import dev.hoplock.core.ownership.OwnershipGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Per-key ownership over {@link NatsBackend} on a real nats-server: three {@link OwnershipGroup} members in this JVM,
 * each with a backend (and connection) of its own on one bucket. A sampler thread asks every member about every key
 * all along the run: no key ever has two acting owners in one sample, and a key's token rises whenever its acting owner
 * changes. The members split the keys; one leaves gracefully and the other two own all keys again, with higher tokens
 * for the keys that moved.
 */
class NatsOwnershipGroupTest {

    private static final Duration TTL = Duration.ofSeconds(3);

    private final String bucket = TestNats.newBucket("ownership");
    private final Map<String, OwnershipGroup> members = new LinkedHashMap<>();
    private final List<NatsBackend> backends = new ArrayList<>();
    private final List<String> keys = new ArrayList<>();
    private final Map<String, String> lastOwner = new HashMap<>();
    private final Map<String, Long> lastToken = new HashMap<>();
    private final AtomicReference<String> violation = new AtomicReference<>();
    private volatile boolean sampling = true;

    @AfterEach
    void stop() throws Exception {
        sampling = false;
        for (OwnershipGroup group : members.values()) {
            group.close();
        }
        for (NatsBackend backend : backends) {
            backend.close();
        }
        TestNats.deleteBucket(bucket);
    }

    private void join(String id) throws Exception {
        NatsBackend backend = TestNats.backend(bucket);
        backends.add(backend);
        OwnershipGroup group = OwnershipGroup.builder(backend, "billing").memberId(id).owner(id + "-process")
                .ttl(TTL).build();
        members.put(id, group);
        group.start();
    }

    /** One pass over every key; records the first violation it finds. */
    private synchronized void sample() {
        for (String key : keys) {
            String acting = null;
            long actingToken = -1;
            for (Map.Entry<String, OwnershipGroup> member : new ArrayList<>(members.entrySet())) {
                OptionalLong token = member.getValue().token(key);
                if (token.isEmpty()) {
                    continue;
                }
                if (acting != null) {
                    violation.compareAndSet(null, key + " acted on by " + acting + " and " + member.getKey());
                }
                acting = member.getKey();
                actingToken = token.getAsLong();
            }
            if (acting == null) {
                continue;
            }
            String before = lastOwner.put(key, acting);
            Long beforeToken = lastToken.put(key, actingToken);
            if (beforeToken != null && !acting.equals(before) && actingToken <= beforeToken) {
                violation.compareAndSet(null, key + " moved from " + before + " (token " + beforeToken + ") to "
                        + acting + " with token " + actingToken);
            }
            if (beforeToken != null && acting.equals(before) && actingToken < beforeToken) {
                violation.compareAndSet(null, key + " token fell at " + acting);
            }
        }
    }

    private long ownedByAnyone() {
        return keys.stream().filter(k -> members.values().stream().anyMatch(g -> g.isOwner(k))).count();
    }

    @Test
    void membersSplitTheKeysWithOneOwnerEachAndTokensRiseWhenAMemberLeaves() throws Exception {
        for (int i = 0; i < 40; i++) {
            keys.add("customer-" + i);
        }
        Thread sampler = new Thread(() -> {
            while (sampling) {
                sample();
                java.util.concurrent.locks.LockSupport.parkNanos(2_000_000L); // pacing, not synchronisation
            }
        }, "ownership-sampler");
        sampler.setDaemon(true);
        join("a");
        join("b");
        join("c");
        sampler.start();

        await("all keys owned by the three members").atMost(Duration.ofSeconds(40))
                .until(() -> ownedByAnyone() == keys.size()
                        && members.values().stream().allMatch(g -> keys.stream().anyMatch(g::isOwner)));
        Map<String, Long> tokensBefore = new HashMap<>();
        synchronized (this) {
            tokensBefore.putAll(lastToken);
        }
        List<String> keysOfB = keys.stream().filter(member("b")::isOwner).toList();
        assertThat(keysOfB).isNotEmpty();

        OwnershipGroup leaving = member("b");
        leaving.close();
        await("the keys of b owned again by a and c").atMost(Duration.ofSeconds(40))
                .until(() -> keysOfB.stream().allMatch(k -> member("a").isOwner(k) || member("c").isOwner(k)));
        sampling = false;
        sampler.join();
        for (String key : keysOfB) {
            String owner = member("a").isOwner(key) ? "a" : "c";
            assertThat(member(owner).token(key).orElseThrow()).as("token of %s after it moved from b", key)
                    .isGreaterThan(tokensBefore.get(key));
        }
        assertThat(violation.get()).as("a violation seen by the sampler").isNull();
    }

    private OwnershipGroup member(String id) {
        return Objects.requireNonNull(members.get(id), () -> id + " is a member");
    }
}
