package dev.hoplock.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.hoplock.core.election.Elector;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three real {@link Elector}s over one {@link JdbcBackend} on the real PostgreSQL server, on real threads and real
 * time: one leader at a time (from the instants each term's work recorded), generations rising at every handover,
 * and a handover each time the leader is closed.
 */
class ElectorOnPostgresqlTest {

    private static final String KEY = "e2e/leader";

    private final String table = TestDatabase.uniqueTable("hoplock_e2e");
    private final List<Elector> electors = new ArrayList<>();
    private final List<CompletableFuture<Void>> loops = new ArrayList<>();
    private final List<Term> terms = new CopyOnWriteArrayList<>();
    private HikariDataSource pool;
    private JdbcBackend backend;

    /** One term as its leader work saw it, on this JVM's monotonic clock. */
    private record Term(String owner, long generation, long startNanos, long endNanos) {
    }

    @BeforeEach
    void start() throws Exception {
        pool = TestDatabase.POSTGRESQL.pool(8);
        backend = JdbcBackend.builder(pool).table(table).initializeSchema(InitializeSchema.ALWAYS).build();
        for (String owner : List.of("node-a", "node-b", "node-c")) {
            Elector elector = Elector.builder(backend, KEY).owner(owner)
                    .ttl(Duration.ofMillis(1500)).renewInterval(Duration.ofMillis(500))
                    .pollInterval(Duration.ofMillis(100)).requestTimeout(Duration.ofMillis(500))
                    .safetyMargin(Duration.ofMillis(150)).build();
            electors.add(elector);
            loops.add(CompletableFuture.runAsync(() -> leadRecordingTerms(elector)));
        }
    }

    @AfterEach
    void stop() throws Exception {
        electors.forEach(Elector::close);
        for (CompletableFuture<Void> loop : loops) {
            loop.get(10, TimeUnit.SECONDS);
        }
        TestDatabase.POSTGRESQL.dropTable(pool, table);
        pool.close();
    }

    private void leadRecordingTerms(Elector elector) {
        try {
            elector.lead(context -> {
                long start = System.nanoTime();
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException endOfTerm) {
                    // the term ended: record it and return promptly
                } finally {
                    terms.add(new Term(elector.owner(), context.lease().generation(), start, System.nanoTime()));
                }
            });
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void oneLeaderAtATimeWithRisingGenerationsAndAHandoverAfterEachClose() {
        List<String> leaders = new ArrayList<>();
        for (int handover = 0; handover < 3; handover++) {
            Elector leader = await().atMost(Duration.ofSeconds(15))
                    .until(this::theLeader, found -> found != null);
            assertThat(electors.stream().filter(Elector::isLeader).count()).as("leaders now").isLessThanOrEqualTo(1);
            leaders.add(leader.owner());
            int ended = terms.size();
            leader.close();
            await().atMost(Duration.ofSeconds(10)).until(() -> terms.size() == ended + 1);
        }

        assertThat(leaders).as("each close handed over to another node").doesNotHaveDuplicates().hasSize(3);
        List<Term> ordered = terms.stream().sorted(Comparator.comparingLong(Term::startNanos)).toList();
        assertThat(ordered).extracting(Term::owner).containsExactlyElementsOf(leaders);
        for (int i = 1; i < ordered.size(); i++) {
            Term before = ordered.get(i - 1);
            Term after = ordered.get(i);
            assertThat(after.startNanos()).as("%s started after %s ended", after, before)
                    .isGreaterThan(before.endNanos());
            assertThat(after.generation()).as("generation of %s above that of %s", after, before)
                    .isGreaterThan(before.generation());
        }
    }

    private @Nullable Elector theLeader() {
        return electors.stream().filter(e -> !e.isStopped() && e.isLeader()).findFirst().orElse(null);
    }
}
