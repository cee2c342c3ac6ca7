package dev.hoplock.core.election;

import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.election.Cluster.Node;
import dev.hoplock.core.election.ElectionEvent.ProblemKind;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static dev.hoplock.core.election.Cluster.KEY;
import static dev.hoplock.core.election.Cluster.POLL;
import static dev.hoplock.core.election.Cluster.TTL;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The catalogue of bad lease records a store may hold (planted by hand, by a buggy or skewed writer, by a proxy's
 * error page): three electors start against each, in virtual time. For every case: no elector leads while the record
 * is within its TTL of local observation; each elector reports one {@link ElectionEvent.Problem} that names the key,
 * what is wrong and the fix; the record is neither deleted nor changed by anyone while it might still be someone's;
 * the electors keep polling (no crash, no silent stop) and report the problem once, not at every poll.
 */
class BadLeaseRecordTest {

    /** Virtual "now" of every Cluster. */
    private static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");

    /**
     * One bad record.
     *
     * @param takenOverAfterTtl whether an elector may replace it once it stayed unchanged for a TTL (garbage: yes;
     *                          a well-formed record that cannot be safely replaced: no)
     */
    record Case(String name, byte[] content, ProblemKind kind, String says, String fix, boolean takenOverAfterTtl) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> badRecords() {
        String expired = "\"expires_at\":\"2026-11-30T09:59:00Z\"";
        List<Case> cases = List.of(
                corrupt("truncated JSON", "{\"generation\":7," + expired + ",\"own", "not valid JSON"),
                corrupt("not JSON: a proxy's HTML error page", "<html><body>502 Bad Gateway</body></html>",
                        "not a JSON object"),
                corrupt("a JSON array", "[7,\"node-1\"]", "not a JSON object"),
                corrupt("an empty object body", "", "not a JSON object"),
                corrupt("generation as a string", "{\"generation\":\"7\"," + expired + "}",
                        "generation must be a JSON integer"),
                corrupt("generation as a float", "{\"generation\":7.0," + expired + "}",
                        "generation must be a JSON integer"),
                corrupt("generation beyond int64", "{\"generation\":92233720368547758070," + expired + "}",
                        "does not fit in 64 bits"),
                corrupt("negative generation", "{\"generation\":-3," + expired + ",\"owner\":\"x\"}", "negative"),
                corrupt("expires_at as a Unix timestamp", "{\"generation\":7,\"expires_at\":1764496800}",
                        "expires_at must be an RFC 3339 string"),
                corrupt("expires_at without seconds", "{\"generation\":7,\"expires_at\":\"2026-11-30T10:00Z\"}",
                        "RFC 3339 time with seconds"),
                corrupt("owner as a number", "{\"generation\":7," + expired + ",\"owner\":42}",
                        "owner must be a string"),
                new Case("an object far above the size limit (1 MiB)", big(), ProblemKind.CORRUPT_RECORD,
                        "larger than the limit", "delete the object", true),
                new Case("invalid UTF-8", new byte[] {'{', (byte) 0xC3, '}'}, ProblemKind.CORRUPT_RECORD,
                        "not UTF-8", "delete the object", true),
                new Case("expiry a year ahead (skewed writer, now gone)", LeaseRecordCodec.encode(new LeaseRecord(7,
                        NOW.plus(Duration.ofDays(365)), "skewed-writer", "n1")), ProblemKind.CLOCK_SKEW,
                        "'skewed-writer'", "delete the object", false),
                new Case("generation at the int64 maximum", LeaseRecordCodec.encode(new LeaseRecord(Long.MAX_VALUE,
                        NOW.minusSeconds(60), "node-1", "n1")), ProblemKind.CORRUPT_RECORD,
                        "9223372036854775807", "delete the object", false));
        return cases.stream().map(Arguments::of);
    }

    private static Case corrupt(String name, String json, String says) {
        return new Case(name, json.getBytes(StandardCharsets.UTF_8), ProblemKind.CORRUPT_RECORD, says,
                "delete the object", true);
    }

    private static byte[] big() {
        byte[] bytes = new byte[1024 * 1024];
        Arrays.fill(bytes, (byte) ' ');
        byte[] head = ("{\"generation\":7,\"expires_at\":\"2026-11-30T09:59:00Z\",\"pad\":\"").getBytes(StandardCharsets.UTF_8);
        System.arraycopy(head, 0, bytes, 0, head.length);
        bytes[bytes.length - 2] = '"';
        bytes[bytes.length - 1] = '}';
        return bytes;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRecords")
    void aBadRecordIsReportedNeverLedOnAndNeverDeleted(Case bad) throws Exception {
        Cluster cluster = new Cluster();
        cluster.store.put(KEY, bad.content());
        StoredObject planted = cluster.store.read(KEY, Duration.ofSeconds(1)).orElseThrow();
        List<Node> nodes = List.of(cluster.node("a").start(), cluster.node("b").start(), cluster.node("c").start());

        // Within the TTL of local observation: nobody leads, nobody touches the record.
        for (long ms = 0; ms < TTL.toMillis() - 100; ms += 100) {
            cluster.advance(Duration.ofMillis(100));
            assertThat(cluster.leaders()).as("leaders at %s ms", ms).isZero();
        }
        assertThat(cluster.store.read(KEY, Duration.ofSeconds(1))).as("the record is neither deleted nor changed")
                .contains(planted);
        for (Node node : nodes) {
            List<ElectionEvent.Problem> problems = node.events(ElectionEvent.Problem.class).stream()
                    .filter(p -> p.kind() == bad.kind()).toList();
            assertThat(problems).as("%s reports the record once, not at every poll", node.elector.owner()).hasSize(1);
            assertThat(problems.get(0).message()).contains("'" + KEY + "'").contains(bad.says()).contains(bad.fix());
            assertThat(node.backend.calls.stream().filter(c -> c.operation().equals("read")).count())
                    .as("%s keeps polling", node.elector.owner()).isGreaterThan(TTL.dividedBy(POLL) - 2);
            assertThat(node.elector.status().role()).isEqualTo(Role.FOLLOWER);
        }

        cluster.advance(TTL.plus(POLL.multipliedBy(2)));
        if (bad.takenOverAfterTtl()) {
            assertThat(cluster.leaders()).as("garbage is replaced after a TTL unchanged").isEqualTo(1);
            LeaseRecord replaced = cluster.stored();
            assertThat(replaced.owner()).isIn("a", "b", "c");
        } else {
            assertThat(cluster.leaders()).isZero();
            assertThat(cluster.store.read(KEY, Duration.ofSeconds(1))).contains(planted);
            for (Node node : nodes) {
                assertThat(node.events(ElectionEvent.Problem.class).stream().filter(p -> p.kind() == bad.kind()))
                        .as("no repeated reports while nothing changes").hasSize(1);
                assertThat(node.elector.isStopped()).isFalse();
            }
        }
    }

    @Test
    void aGenerationThatGoesDownIsReportedWithTheKeyAndNewTermsStayAboveTheHighestSeen() throws Exception {
        Cluster cluster = new Cluster();
        cluster.store.put(KEY, LeaseRecordCodec.encode(new LeaseRecord(40, NOW.plus(TTL), "old-writer", "n1")));
        Node a = cluster.node("a").start();
        cluster.advance(POLL);
        cluster.store.put(KEY, LeaseRecordCodec.encode(new LeaseRecord(3, NOW.plus(TTL), "rewriter", "n2")));
        cluster.advance(POLL);
        assertThat(a.events(ElectionEvent.Problem.class)).anySatisfy(p -> {
            assertThat(p.kind()).isEqualTo(ProblemKind.GENERATION_REGRESSED);
            assertThat(p.message()).contains("'" + KEY + "'").contains("from 40 to 3");
        });
        cluster.advanceUntil(a.elector::isLeader, TTL.multipliedBy(3));
        assertThat(a.elector.currentLease().orElseThrow().generation()).isEqualTo(41);
    }
}
