package dev.hoplock.bench.ownership;

import dev.hoplock.bench.common.Initializer;
import dev.hoplock.core.ownership.Member;
import dev.hoplock.core.ownership.MembershipView;
import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.ownership.OwnerCache;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.core.time.VirtualTime;
import dev.hoplock.core.ownership.Rendezvous;
import dev.hoplock.core.ownership.StaticMembership;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The cost of one per-key ownership check with 100 members, cycling over 10,000 distinct keys, side by side:
 * <ul>
 *   <li>{@link #haScheme}: hanzoai/ha's scheme, computed on every call: 100 SHA-256 weights over a prepared member
 *       list (ids already encoded), {@link Rendezvous#isOwner(String, String, MembershipView)}; the strict baseline.</li>
 *   <li>{@link #haSchemeOverList}: the same through the list form, {@code isOwner(key, selfId, List<Member>)}, which
 *       also validates and sorts the list on every call.</li>
 *   <li>{@link #cachedCheck}: {@link OwnerCache#isOwner(String)} over a static membership of the same 100 members,
 *       after the keys have been seen once (every key repeats: each is checked once per 10,000 calls).</li>
 *   <li>{@link #groupCheck}: the safe check, {@link OwnershipGroup#isOwner(String)} of one member of a settled group
 *       of 100 live members (in-memory store, virtual time frozen during the measurement, so the view stays
 *       confirmed): the rules M1 to M4 on every call (liveness term, view freshness on both clocks, hand-over state,
 *       the key's token) over the same cached rendezvous answers.</li>
 * </ul>
 * With {@code -p keys=100000}, more distinct keys than the cache's default capacity (65,536) in a cycle: the limit of
 * the amortisation, where the cached check pays the computation on most calls.
 * The cache answers as the computation does for every key (checked in the set-up). Run with
 * {@code org.openjdk.jmh.Main OwnershipCheckBenchmark -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(2)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class OwnershipCheckBenchmark {

    @Param("100")
    public int members;

    @Param("10000")
    public int keys;

    private String selfId;
    private List<Member> memberList;
    private MembershipView view;
    private OwnerCache cache;
    private String[] keyNames;

    @Setup(Level.Trial)
    @Initializer
    public void prepare() {
        memberList = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            memberList.add(new Member(String.format("member-%03d", i), "10.0." + i / 250 + "." + i % 250 + ":8080"));
        }
        selfId = memberList.get(members / 2).id();
        StaticMembership membership = StaticMembership.of(memberList.get(members / 2), memberList);
        view = membership.members();
        cache = new OwnerCache(membership);
        keyNames = new String[keys];
        int owned = 0;
        for (int k = 0; k < keys; k++) {
            keyNames[k] = "tenant-" + k;
            boolean computed = Rendezvous.isOwner(keyNames[k], selfId, view);
            if (cache.isOwner(keyNames[k]) != computed) {
                throw new IllegalStateException("the cache and the computation disagree on " + keyNames[k]);
            }
            owned += computed ? 1 : 0;
        }
        if (owned == 0 || (keys <= OwnerCache.DEFAULT_CAPACITY && cache.cachedKeys() != keys)) {
            throw new IllegalStateException("set-up: " + owned + " keys owned, " + cache.cachedKeys() + " cached");
        }
    }

    /** Each thread walks the keys in order, so that every key repeats once per {@code keys} calls. */
    @State(Scope.Thread)
    public static class Cursor {
        private int next;

        String key(String[] keyNames) {
            String key = keyNames[next];
            next = next + 1 == keyNames.length ? 0 : next + 1;
            return key;
        }
    }

    @Benchmark
    public boolean haScheme(Cursor cursor) {
        return Rendezvous.isOwner(cursor.key(keyNames), selfId, view);
    }

    @Benchmark
    public boolean haSchemeOverList(Cursor cursor) {
        return Rendezvous.isOwner(cursor.key(keyNames), selfId, memberList);
    }

    @Benchmark
    public boolean cachedCheck(Cursor cursor) {
        return cache.isOwner(cursor.key(keyNames));
    }

    @Benchmark
    public boolean groupCheck(Group group, Cursor cursor) {
        return group.self.isOwner(cursor.key(keyNames));
    }

    /** A settled group of {@code members} live members in virtual time; the benchmark asks one of them. */
    @State(Scope.Benchmark)
    public static class Group {

        OwnershipGroup self;
        private final List<OwnershipGroup> all = new ArrayList<>();

        @Setup(Level.Trial)
        @Initializer
        public void join(OwnershipCheckBenchmark benchmark) {
            VirtualTime time = new VirtualTime(Instant.parse("2026-12-01T00:00:00Z"));
            AsyncBackend store = AsyncBackend.on(new InMemoryBackend(), Runnable::run);
            for (int i = 0; i < benchmark.members; i++) {
                OwnershipGroup group = OwnershipGroup.builder(store, "bench")
                        .memberId(String.format("member-%03d", i)).owner("p" + i)
                        .timeSource(time).scheduler(time).eventExecutor(Runnable::run).build();
                group.start();
                all.add(group);
            }
            time.advance(Duration.ofMinutes(10));
            self = all.get(benchmark.members / 2);
            if (!all.stream().allMatch(OwnershipGroup::isMember) || self.members().size() != benchmark.members) {
                throw new IllegalStateException("the group of " + benchmark.members + " did not settle");
            }
            int owned = 0;
            for (String key : benchmark.keyNames) {
                boolean computed = Rendezvous.isOwner(key, self.self().id(), benchmark.view);
                if (self.isOwner(key) != computed) {
                    throw new IllegalStateException("the group and the computation disagree on " + key);
                }
                owned += computed ? 1 : 0;
            }
            if (owned == 0) {
                throw new IllegalStateException("set-up: no key owned");
            }
        }
    }
}
