package dev.hoplock.core.election;

import dev.hoplock.core.FaultyBackend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.time.VirtualTime;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/** Electors over one in-memory store, all in virtual time on the test thread. */
final class Cluster {

    static final String KEY = "elections/test";
    static final Duration TTL = Duration.ofSeconds(30);
    static final Duration RENEW = Duration.ofSeconds(10);
    static final Duration POLL = Duration.ofSeconds(2);
    static final Duration MARGIN = Duration.ofSeconds(3);

    final VirtualTime time = new VirtualTime(Instant.parse("2026-11-30T10:00:00Z"));
    final InMemoryBackend store = new InMemoryBackend();
    final List<Node> nodes = new ArrayList<>();

    Node node(String owner) {
        return node(owner, Duration.ZERO, b -> { });
    }

    Node node(String owner, Duration wallOffset, java.util.function.Consumer<Elector.Builder> tweak) {
        FaultyBackend backend = new FaultyBackend(store);
        Elector.Builder builder = Elector.builder(backend, KEY)
                .owner(owner)
                .ttl(TTL).renewInterval(RENEW).pollInterval(POLL).safetyMargin(MARGIN)
                .timeSource(time.withWallOffset(wallOffset)).scheduler(time)
                .eventExecutor(Runnable::run);
        tweak.accept(builder);
        Node node = new Node(builder.build(), backend);
        nodes.add(node);
        return node;
    }

    void advance(Duration duration) {
        time.advance(duration);
    }

    /** Advances in small steps until {@code condition} holds; fails after {@code limit}. */
    Duration advanceUntil(java.util.function.BooleanSupplier condition, Duration limit) {
        Duration start = time.elapsed();
        Duration step = Duration.ofMillis(100);
        while (!condition.getAsBoolean()) {
            if (time.elapsed().minus(start).compareTo(limit) > 0) {
                throw new AssertionError("condition not met within " + limit + " of virtual time");
            }
            time.advance(step);
        }
        return time.elapsed().minus(start);
    }

    long leaders() {
        return nodes.stream().filter(n -> n.elector.isLeader()).count();
    }

    Optional<Node> leader() {
        return nodes.stream().filter(n -> n.elector.isLeader()).findFirst();
    }

    LeaseRecord stored() throws Exception {
        return LeaseRecordCodec.decode(store.read(KEY, Duration.ofSeconds(1)).orElseThrow().content());
    }

    static final class Node {
        final Elector elector;
        final FaultyBackend backend;
        final List<ElectionEvent> events = new CopyOnWriteArrayList<>();

        Node(Elector elector, FaultyBackend backend) {
            this.elector = elector;
            this.backend = backend;
            elector.addListener(events::add);
        }

        Node start() {
            elector.start();
            return this;
        }

        <T extends ElectionEvent> List<T> events(Class<T> type) {
            return events.stream().filter(type::isInstance).map(type::cast).toList();
        }

        /** Stops without releasing: the process is gone as far as the store can tell. */
        void crash() {
            backend.mode = FaultyBackend.Mode.HANG;
            elector.closeAsync();
        }
    }
}
