package dev.hoplock.core.ownership;

import dev.hoplock.core.time.VirtualTime;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The check loop of the ownership tests that run live members in virtual time ({@link OwnershipGroupTest},
 * {@link TornRegistryReadTest}): after every 100 ms step, no key has two acting owners, and a key's token rises
 * whenever its acting owner changes. It reads the test's own member map and key list, so members added or removed by
 * the test are checked from then on.
 */
final class ActingOwnerCheck {

    private final VirtualTime time;
    private final Map<String, OwnershipGroup> groups;
    private final List<String> keys;
    /** Per key: the last acting owner and token seen. */
    private final Map<String, String> lastOwner = new HashMap<>();
    private final Map<String, Long> lastToken = new HashMap<>();
    private boolean sameOwnerKeepsItsToken;
    private Supplier<String> views = () -> "";

    ActingOwnerCheck(VirtualTime time, Map<String, OwnershipGroup> groups, List<String> keys) {
        this.time = time;
        this.groups = groups;
        this.keys = keys;
    }

    /** Also checks that a key's token never falls while the same member keeps acting on it. */
    ActingOwnerCheck sameOwnerKeepsItsToken() {
        this.sameOwnerKeepsItsToken = true;
        return this;
    }

    /** Adds the members' views to the message of a key with two acting owners. */
    ActingOwnerCheck describingViews(Supplier<String> views) {
        this.views = views;
        return this;
    }

    /** Advances virtual time in 100 ms steps, checking after each that no key has two acting owners. */
    void run(Duration duration) {
        for (long t = 0; t < duration.toMillis(); t += 100) {
            time.advance(Duration.ofMillis(100));
            check();
        }
    }

    private void check() {
        for (String key : keys) {
            String acting = null;
            for (Map.Entry<String, OwnershipGroup> e : groups.entrySet()) {
                long token = e.getValue().gate().tokenIfActing(key);
                if (token < 0) {
                    continue;
                }
                String first = acting;
                assertThat(acting).as(() -> String.format("key %s acted on by %s and %s (token %d) at %s%s", key,
                        first, e.getKey(), token, time.elapsed(), views.get())).isNull();
                acting = e.getKey();
                String before = lastOwner.put(key, acting);
                Long beforeToken = lastToken.put(key, token);
                if (beforeToken == null) {
                    continue;
                }
                if (!acting.equals(before)) {
                    assertThat(token).as("token of %s moving from %s to %s", key, before, acting)
                            .isGreaterThan(beforeToken);
                } else if (sameOwnerKeepsItsToken) {
                    assertThat(token).as("token of %s", key).isGreaterThanOrEqualTo(beforeToken);
                }
            }
        }
    }
}
