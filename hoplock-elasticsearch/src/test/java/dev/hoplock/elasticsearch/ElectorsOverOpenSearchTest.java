package dev.hoplock.elasticsearch;

import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.LossCause;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.elasticsearch.node.OpenSearchExtension;
import dev.hoplock.elasticsearch.node.OpenSearchNode;
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
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three real electors in this JVM, each with its own backend (its own HTTP client), compete for one lease document
 * in the OpenSearch node: one leads at a time by the instants the electors recorded, every follower sees the leader,
 * a graceful close hands the lease over, and the generation (fencing token) rises at every change of holder.
 */
@ExtendWith(OpenSearchExtension.class)
class ElectorsOverOpenSearchTest {

    /** Long enough that a loaded machine's stalls do not end a term early; handovers on close do not wait for it. */
    private static final Duration TTL = Duration.ofSeconds(10);
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final OpenSearchNode node;
    private final Map<String, Elector> electors = new LinkedHashMap<>();
    private final List<ElectionEvent> events = new CopyOnWriteArrayList<>();
    private final List<ElasticsearchBackend> backends = new ArrayList<>();

    ElectorsOverOpenSearchTest(OpenSearchNode node) {
        this.node = node;
    }

    @AfterEach
    void closeAll() {
        electors.values().forEach(Elector::close);
        backends.forEach(ElasticsearchBackend::close);
    }

    @Test
    void oneLeaderAtATimeRisingGenerationsAndHandoverOnClose() throws Exception {
        String index = TestSearch.uniqueIndex("electors");
        String key = "elections/" + UUID.randomUUID();
        Map<String, List<ElectionEvent>> byOwner = new LinkedHashMap<>();
        for (String owner : List.of("node-a", "node-b", "node-c")) {
            ElasticsearchBackend backend = TestSearch.backend(node, index);
            backends.add(backend);
            Elector elector = Elector.builder(backend, key).owner(owner).ttl(TTL)
                    .renewInterval(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(200))
                    .safetyMargin(Duration.ofSeconds(1)).requestTimeout(Duration.ofSeconds(2)).build();
            List<ElectionEvent> own = new CopyOnWriteArrayList<>();
            byOwner.put(owner, own);
            elector.addListener(event -> {
                own.add(event);
                events.add(event);
            });
            electors.put(owner, elector);
        }
        electors.values().forEach(Elector::start);

        List<String> leaders = new ArrayList<>();
        List<Long> handoverMillis = new ArrayList<>();
        for (int term = 1; term <= 3; term++) {
            int acquiredSoFar = term - 1;
            await("leader of term " + term + "; events " + events).atMost(PATIENCE)
                    .until(() -> acquired().size() > acquiredSoFar);
            ElectionEvent.Acquired acquired = acquired().get(acquiredSoFar);
            String leader = owner(acquired, byOwner);
            leaders.add(leader);
            assertThat(acquired.lease().generation()).as("generation of term %d", term).isEqualTo(term);
            assertThat(electors.values().stream().filter(Elector::isLeader).count()).as("leaders now")
                    .isLessThanOrEqualTo(1);

            List<String> followers = electors.keySet().stream()
                    .filter(o -> !leaders.contains(o)).toList();
            await("followers " + followers + " see " + leader).atMost(PATIENCE)
                    .until(() -> followers.stream().allMatch(f -> Objects.requireNonNull(byOwner.get(f), "every follower is watched").stream()
                            .anyMatch(e -> e instanceof ElectionEvent.LeaderObserved seen && seen.holder()
                                    .map(h -> h.owner().equals(leader)).orElse(false))));

            long closing = System.nanoTime();
            Objects.requireNonNull(electors.get(leader), "the leader is one of the electors").close();
            if (term < 3) {
                await("a leader after closing " + leader).atMost(PATIENCE).until(() -> acquired().size() > acquiredSoFar + 1);
                handoverMillis.add(Duration.ofNanos(System.nanoTime() - closing).toMillis());
            }
        }

        assertThat(leaders).as("a different owner leads each term").doesNotHaveDuplicates();
        List<ElectionEvent.Acquired> acquired = acquired();
        assertThat(acquired).hasSize(3);
        assertThat(acquired).extracting(a -> a.lease().generation()).containsExactly(1L, 2L, 3L);

        // Events reach listeners on each elector's event thread, and close() does not wait for them: the last
        // leader's Lost may still be on its way.
        await("the Lost event of every term; events " + events).atMost(PATIENCE)
                .until(() -> events.stream().filter(ElectionEvent.Lost.class::isInstance).count() >= 3);
        List<ElectionEvent.Lost> lost = events.stream().filter(ElectionEvent.Lost.class::isInstance)
                .map(ElectionEvent.Lost.class::cast).sorted(Comparator.comparing(ElectionEvent::at)).toList();
        assertThat(lost).as("every term ends by the close").hasSize(3)
                .allMatch(l -> l.cause() == LossCause.STOPPED);
        List<ElectionEvent.Acquired> starts = acquired.stream()
                .sorted(Comparator.comparing(ElectionEvent::at)).toList();
        for (int i = 1; i < starts.size(); i++) {
            ElectionEvent.Lost previousEnd = lost.get(i - 1);
            assertThat(owner(starts.get(i - 1), byOwner)).isEqualTo(owner(previousEnd, byOwner));
            assertThat(starts.get(i).at()).as("term %d starts after term %d ended", i + 1, i)
                    .isAfterOrEqualTo(previousEnd.at());
        }

        byte[] last = backends.get(0).read(key, TestSearch.TIMEOUT).orElseThrow().content();
        assertThat(LeaseRecordCodec.decode(last).isReleased()).as("the last leader released the lease").isTrue();
        System.out.printf("electors over OpenSearch: leaders %s, handover after close %s ms%n", leaders,
                handoverMillis);
    }

    private List<ElectionEvent.Acquired> acquired() {
        return events.stream().filter(ElectionEvent.Acquired.class::isInstance)
                .map(ElectionEvent.Acquired.class::cast).toList();
    }

    private static String owner(ElectionEvent event, Map<String, List<ElectionEvent>> byOwner) {
        return byOwner.entrySet().stream().filter(e -> e.getValue().contains(event)).map(Map.Entry::getKey)
                .findFirst().orElseThrow();
    }
}
