package dev.hoplock.core.lock;

import dev.hoplock.core.backend.LeaseKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The lock names one {@link NamedLocks} has seen, each with its {@link LockSlot}: created on first use (the name checked
 * once), asked for the locks held, and released together at close.
 */
final class LockSlotTable {

    private static final Logger log = LoggerFactory.getLogger(NamedLocks.class);

    private final NamedLocks locks;
    private final String keyPrefix;
    private final ConcurrentHashMap<String, LockSlot> slots = new ConcurrentHashMap<>();

    LockSlotTable(NamedLocks locks, String keyPrefix) {
        this.locks = locks;
        this.keyPrefix = keyPrefix;
    }

    /** The slot of {@code name}, created with its key on first use. */
    LockSlot slot(String name) {
        LockSlot existing = slots.get(name);
        if (existing != null) {
            return existing;
        }
        String key;
        try {
            key = LeaseKeys.validate(keyPrefix + name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(LockProblems.invalidName(name, e), e);
        }
        return slots.computeIfAbsent(name, n -> new LockSlot(locks, n, key));
    }

    /** Every name seen, with its lease key, sorted by name. */
    java.util.SortedMap<String, String> keysByName() {
        java.util.SortedMap<String, String> keys = new java.util.TreeMap<>();
        slots.forEach((name, slot) -> keys.put(name, slot.key()));
        return keys;
    }

    /** The locks held now, one handle per name. */
    List<LockHandle> held() {
        List<LockHandle> result = new ArrayList<>();
        for (LockSlot slot : slots.values()) {
            LockHandle hold = slot.validHold();
            if (hold != null) {
                result.add(hold);
            }
        }
        return result;
    }

    /**
     * Releases every lock held, waiting at most {@code requestTimeout} for the store's answers: a lock not released by
     * then expires by itself.
     */
    void releaseAll(Duration requestTimeout) {
        List<CompletableFuture<?>> releases = new ArrayList<>();
        for (LockSlot slot : slots.values()) {
            LockHold hold = slot.validHold();
            if (hold != null) {
                releases.add(slot.release(hold));
            }
        }
        try {
            CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new))
                    .get(requestTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("hoplock: not every lock was released at close ({}); they expire by themselves", e.toString());
        }
    }
}
