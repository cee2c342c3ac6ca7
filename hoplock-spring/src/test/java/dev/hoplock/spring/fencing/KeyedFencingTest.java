package dev.hoplock.spring.fencing;

import dev.hoplock.core.fencing.Fence;
import dev.hoplock.core.fencing.StaleTokenException;
import dev.hoplock.spring.fencing.FencedInterceptorTest.Writer;
import dev.hoplock.spring.ownership.OwnershipScope;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code @Fenced} under a per-key gate: the token is the key's, and the fenced resource is the declared one with the
 * key appended, so that keys with unrelated token sequences do not refuse each other, while a stale owner of one key
 * is refused. The fence keeps the highest token per resource, as every fence must.
 */
class KeyedFencingTest {

    private final List<String> events = new ArrayList<>();
    private final Map<String, Long> highest = new HashMap<>();

    private final Fence fence = (resource, token) -> {
        long seen = highest.getOrDefault(resource, Long.MIN_VALUE);
        if (token < seen) {
            events.add("refused " + resource + "@" + token);
            throw new StaleTokenException(resource, token, seen);
        }
        highest.put(resource, token);
        events.add("checked " + resource + "@" + token);
    };

    @AfterEach
    void clearTransaction() {
        TransactionSynchronizationManager.setActualTransactionActive(false);
    }

    @Test
    void eachKeyIsFencedOnItsOwnResourceWithItsOwnToken() {
        Writer writer = proxy();
        TransactionSynchronizationManager.setActualTransactionActive(true);
        writeAs(writer, "org-1", 9);
        writeAs(writer, "org-2", 3);
        assertThat(events).containsExactly("checked invoices/org-1@9", "body", "checked invoices/org-2@3", "body");
        assertThatThrownBy(() -> writeAs(writer, "org-1", 8)).isInstanceOf(StaleTokenException.class);
        assertThat(events).endsWith("refused invoices/org-1@8");
    }

    /**
     * Issue 19, defect 6: the starter's token source is a {@link FirstTokenSource} of {@code @WithLock} and
     * {@code @LeaderOnly}; it must pass the per-key resource on, or every key is fenced on one resource and the owner
     * of a key acquired at an earlier epoch (a lower token) is refused as stale.
     */
    @Test
    void theStartersCompositeTokenSourceFencesEachKeyOnItsOwnResource() {
        Writer writer = proxy(FencingFixtures.startersTokens());
        TransactionSynchronizationManager.setActualTransactionActive(true);
        writeAs(writer, "org-2", 5);
        writeAs(writer, "org-1", 3);
        assertThat(events).containsExactly("checked invoices/org-2@5", "body", "checked invoices/org-1@3", "body");
        assertThatThrownBy(() -> writeAs(writer, "org-1", 2)).isInstanceOf(StaleTokenException.class);
        assertThat(events).endsWith("refused invoices/org-1@2");
    }

    private static void writeAs(Writer writer, String key, long token) {
        FencingFixtures.writeIn(writer,
                new OwnershipScope("billing", "member-a", new FencingFixtures.Claim(key, token)));
    }

    private Writer proxy() {
        return proxy(FencingFixtures.leaderOnlyTokens());
    }

    private Writer proxy(FencingTokenSource tokens) {
        return FencingFixtures.fencedWriter(events, fence, tokens);
    }
}
