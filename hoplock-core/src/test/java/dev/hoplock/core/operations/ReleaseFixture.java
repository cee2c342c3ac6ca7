package dev.hoplock.core.operations;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.FilesystemBackend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.time.VirtualTime;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/** One real store (memory or a directory), electors and releases over it, all in virtual time on the test thread. */
final class ReleaseFixture {

    static final String KEY = "elections/ops";
    static final Duration TTL = Duration.ofSeconds(30);
    static final Duration RENEW = Duration.ofSeconds(10);
    static final Duration POLL = Duration.ofSeconds(2);
    static final Duration MARGIN = Duration.ofSeconds(3);

    final VirtualTime time = new VirtualTime(Instant.parse("2026-12-03T08:00:00Z"));
    final Backend store;

    ReleaseFixture(String kind, Path dir) {
        this.store = kind.equals("memory") ? new InMemoryBackend() : new FilesystemBackend(dir);
    }

    static String[] stores() {
        return new String[] {"memory", "filesystem"};
    }

    Elector elector(String owner) {
        return elector(owner, store);
    }

    Elector elector(String owner, Backend backend) {
        return Elector.builder(backend, KEY).owner(owner)
                .ttl(TTL).renewInterval(RENEW).pollInterval(POLL).safetyMargin(MARGIN)
                .timeSource(time).scheduler(time).ioExecutor(Runnable::run).eventExecutor(Runnable::run).build();
    }

    StuckLeaseRelease.Builder release() {
        return StuckLeaseRelease.builder(store).ttl(TTL).pollInterval(POLL).timeSource(time).scheduler(time);
    }

    /** Advances in 100 ms steps until {@code future} completes; fails after {@code limit}. */
    <T> T advanceUntilDone(CompletableFuture<T> future, Duration limit) {
        Duration start = time.elapsed();
        while (!future.isDone()) {
            if (time.elapsed().minus(start).compareTo(limit) > 0) {
                throw new AssertionError("not done within " + limit + " of virtual time");
            }
            time.advance(Duration.ofMillis(100));
        }
        return future.join();
    }

    void advanceUntil(java.util.function.BooleanSupplier condition, Duration limit) {
        Duration start = time.elapsed();
        while (!condition.getAsBoolean()) {
            if (time.elapsed().minus(start).compareTo(limit) > 0) {
                throw new AssertionError("condition not met within " + limit + " of virtual time");
            }
            time.advance(Duration.ofMillis(100));
        }
    }

    void put(LeaseRecord record) throws Exception {
        put(LeaseRecordCodec.encode(record));
    }

    void put(byte[] bytes) throws Exception {
        var current = store.read(KEY, Duration.ofSeconds(1));
        store.write(KEY, current.map(c -> c.handle()).orElse(dev.hoplock.core.backend.Handle.NONE), bytes,
                Duration.ofSeconds(1));
    }

    LeaseRecord stored() throws Exception {
        return LeaseRecordCodec.decode(store.read(KEY, Duration.ofSeconds(1)).orElseThrow().content());
    }
}
