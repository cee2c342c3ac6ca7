package dev.hoplock.spring.fencing;

import dev.hoplock.core.election.LeaderContext;
import dev.hoplock.core.fencing.Fence;
import dev.hoplock.core.fencing.FencingException;
import dev.hoplock.core.fencing.StaleTokenException;
import dev.hoplock.spring.leader.LeaderContextHolder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The call-time guards of {@code @Fenced}, which back up the start-up validation: the method body never runs unless
 * a transaction is active, the call carries a token, and the fence accepted it. The fence here records what it was
 * asked (or refuses), so the order of check and body is visible.
 */
class FencedInterceptorTest {

    private final List<String> events = new ArrayList<>();
    private long refuseBelow = Long.MIN_VALUE;

    private final Fence recordingFence = (resource, token) -> {
        if (token < refuseBelow) {
            events.add("refused " + resource + "@" + token);
            throw new StaleTokenException(resource, token, refuseBelow);
        }
        events.add("checked " + resource + "@" + token);
    };

    @AfterEach
    void clearTransaction() {
        TransactionSynchronizationManager.setActualTransactionActive(false);
    }

    @Test
    void outsideATransactionNeitherTheCheckNorTheBodyRuns() {
        Writer writer = proxy();
        LeaderContext previous = LeaderContextHolder.enter(FencingFixtures.leader("me", 7));
        try {
            assertThatThrownBy(writer::write).isInstanceOf(FencingException.class)
                    .hasMessageContaining("Writer.write(..) is @Fenced(\"invoices\"), but no transaction is active");
        } finally {
            LeaderContextHolder.restore(previous);
        }
        assertThat(events).isEmpty();
    }

    @Test
    void withoutATokenNeitherTheCheckNorTheBodyRuns() {
        Writer writer = proxy();
        TransactionSynchronizationManager.setActualTransactionActive(true);
        assertThatThrownBy(writer::write).isInstanceOf(FencingException.class)
                .hasMessageContaining("the call carries no fencing token: tokens come from @LeaderOnly");
        assertThat(events).isEmpty();
    }

    @Test
    void theCheckRunsBeforeTheBodyWithTheLeasesGeneration() {
        Writer writer = proxy();
        TransactionSynchronizationManager.setActualTransactionActive(true);
        FencingFixtures.writeIn(writer, FencingFixtures.leader("me", 7));
        assertThat(events).containsExactly("checked invoices@7", "body");
    }

    @Test
    void aRefusedTokenStopsTheBody() {
        Writer writer = proxy();
        refuseBelow = 8;
        TransactionSynchronizationManager.setActualTransactionActive(true);
        LeaderContext previous = LeaderContextHolder.enter(FencingFixtures.leader("me", 7));
        try {
            assertThatThrownBy(writer::write).isInstanceOf(StaleTokenException.class);
        } finally {
            LeaderContextHolder.restore(previous);
        }
        assertThat(events).containsExactly("refused invoices@7");
    }

    @Test
    void anUnfencedMethodIsNotChecked() {
        Writer writer = proxy();
        writer.unfenced();
        assertThat(events).containsExactly("unfenced");
    }

    private Writer proxy() {
        return FencingFixtures.fencedWriter(events, recordingFence, FencingFixtures.leaderOnlyTokens());
    }

    /** The fenced target. */
    public static class Writer {

        private final List<String> events;

        public Writer(List<String> events) {
            this.events = events;
        }

        @Fenced("invoices")
        public void write() {
            events.add("body");
        }

        public void unfenced() {
            events.add("unfenced");
        }
    }
}
