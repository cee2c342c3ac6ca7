package dev.hoplock.spring.test;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.ownership.HoplockOwnership;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Spring Framework 7's test context cache pauses a cached context when the next test class needs another one, and
 * restarts it when a later class uses it again ({@code spring.test.context.cache.pause}, on a context switch by
 * default). Three test classes run in order, as a suite would: the first uses context A, the second context B (A is
 * paused: it leads nothing, its lease is released), the third A again (restarted: it leads at once, and
 * {@code @LeaderOnly}, {@code @WithLock} and keyed {@code @LeaderOnly} calls run; the ownership group stayed joined).
 */
class CachedContextPauseTests {

    /** Context A's electors, as the first class saw them. */
    static final AtomicReference<@Nullable HoplockElections> FIRST = new AtomicReference<>();
    static final AtomicReference<@Nullable Backend> FIRST_STORE = new AtomicReference<>();

    @Test
    void aPausedContextReleasesItsLeaseAndLeadsAgainWhenTheCacheRestartsIt() {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(UsesContextA.class), selectClass(UsesContextB.class),
                        selectClass(UsesContextAAgain.class))
                .configurationParameter("junit.jupiter.testclass.order.default",
                        ClassOrderer.OrderAnnotation.class.getName())
                .build();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(request, listener);

        TestExecutionSummary summary = listener.getSummary();
        StringWriter failures = new StringWriter();
        summary.printFailuresTo(new PrintWriter(failures), 30);
        assertThat(summary.getTotalFailureCount()).as(failures.toString()).isZero();
        assertThat(summary.getTestsSucceededCount()).isEqualTo(3);
    }

    /** True when the store shows {@code elector}'s lease released. */
    private static boolean released(Backend store, Elector elector) throws Exception {
        Optional<StoredObject> stored = store.read(elector.key(), Duration.ofSeconds(5));
        return stored.isPresent() && LeaseRecordCodec.decode(stored.get().content()).isReleased();
    }

    @SpringBootTest(classes = TestApplication.class, properties = "test.context=a")
    @AutoConfigureHoplock
    @Order(1)
    static class UsesContextA {

        @Autowired
        HoplockElections elections;

        @Autowired
        Backend store;

        @Test
        void leads() {
            assertThat(elections.getDefault().isLeader()).isTrue();
            FIRST.set(elections);
            FIRST_STORE.set(store);
        }
    }

    @SpringBootTest(classes = TestApplication.class, properties = "test.context=b")
    @AutoConfigureHoplock
    @Order(2)
    static class UsesContextB {

        @Autowired
        HoplockElections elections;

        @Test
        void contextAIsPausedAndHoldsNoLease() throws Exception {
            HoplockElections first = Objects.requireNonNull(FIRST.get(), "the first class ran");
            Backend firstStore = Objects.requireNonNull(FIRST_STORE.get(), "the first class ran");
            assertThat(first).isNotSameAs(elections);
            Elector a = first.getDefault();
            assertThat(a.isLeader()).isFalse();
            assertThat(a.isStopped()).as("withdrawn, not closed").isFalse();
            await().atMost(Duration.ofSeconds(20)).until(() -> released(firstStore, a));
            assertThat(elections.getDefault().isLeader()).as("context B leads on its own store").isTrue();
        }
    }

    @SpringBootTest(classes = TestApplication.class, properties = "test.context=a")
    @AutoConfigureHoplock
    @Order(3)
    static class UsesContextAAgain {

        @Autowired
        HoplockElections elections;

        @Autowired
        HoplockTestControl hoplock;

        @Autowired
        HoplockOwnership ownership;

        @Autowired
        TestApplication.Jobs jobs;

        @Test
        void leadsLocksAndOwnsAgain() {
            assertThat(elections).as("the cached context A, restarted").isSameAs(FIRST.get());
            assertThat(elections.getDefault().isLeader()).as("leads as soon as the restart returned").isTrue();
            hoplock.calls().reset();
            assertThat(jobs.report()).isEqualTo("done");
            hoplock.calls().assertRanOnce("Jobs.report");
            assertThat(ownership.isClosed()).as("the group is not paused").isFalse();
            hoplock.ownAllKeys("tenant-1");
            jobs.bill("tenant-1");
            hoplock.calls().assertRanOnce("Jobs.bill");
        }
    }
}
