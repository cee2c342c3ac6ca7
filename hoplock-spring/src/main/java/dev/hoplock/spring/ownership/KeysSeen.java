package dev.hoplock.spring.ownership;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The keys this instance has checked, remembered so that a membership change can say which of them moved and the
 * share of keys this instance owns can be measured. Bounded: at most {@link #CAPACITY} keys; further keys are not
 * remembered (the figures then cover the first ones). Thread-safe; remembering a known key allocates nothing.
 */
final class KeysSeen {

    /** At most this many keys are remembered. */
    static final int CAPACITY = 10_000;

    private final Set<String> keys = ConcurrentHashMap.newKeySet();

    void add(String key) {
        if (keys.size() < CAPACITY && !keys.contains(key)) {
            keys.add(key);
        }
    }

    List<String> snapshot() {
        return List.copyOf(keys);
    }

    int size() {
        return keys.size();
    }
}
