package dev.hoplock.core;

import dev.hoplock.core.Cluster.Node;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static dev.hoplock.core.Cluster.MARGIN;
import static dev.hoplock.core.Cluster.TTL;
import static org.assertj.core.api.Assertions.assertThat;

/** Regression tests of the defects of issue 9, each on virtual time with a backend that answers at once. */
class ElectorHardeningTest {

    private final Cluster cluster = new Cluster();

    private static List<Class<?>> termEvents(Node node) {
        return node.events.stream()
                .filter(e -> e instanceof ElectionEvent.Acquired || e instanceof ElectionEvent.Lost)
                .<Class<?>>map(Object::getClass).toList();
    }

    // ---- 1. every term ends before the next begins

    @Test
    void aTermPastItsDeadlineEndsWithItsCauseBeforeTheNextBegins() {
        // The timer thread stalls across the deadline; when it resumes, the renewal step runs before the fence timer
        // and (the store answering at once) a new term used to replace the old one without a Lost event, and the old
        // term's scopes were never told.
        HeldScheduler timers = new HeldScheduler(cluster.time);
        Node a = cluster.node("a", Duration.ZERO, b -> b.scheduler(timers)).start();
        cluster.time.runDue();
        LeaderScope work = a.elector.enterLeaderScope(false).orElseThrow();
        timers.hold();
        cluster.advance(TTL);
        assertThat(a.elector.isLeader()).isFalse();
        timers.release();

        assertThat(work.wasLost()).as("the first term's scope was told").isTrue();
        assertThat(termEvents(a)).containsExactly(ElectionEvent.Acquired.class, ElectionEvent.Lost.class,
                ElectionEvent.Acquired.class);
        assertThat(a.events(ElectionEvent.Lost.class)).singleElement()
                .extracting(ElectionEvent.Lost::cause).isEqualTo(LossCause.DEADLINE_PASSED);
        assertThat(a.elector.currentLease().orElseThrow().generation()).isEqualTo(2);
        work.close();
    }
}
