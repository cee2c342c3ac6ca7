package dev.hoplock.bench.ownership;

import dev.hoplock.bench.common.Results;
import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.ownership.Member;
import dev.hoplock.core.ownership.MembershipView;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.core.ownership.Rendezvous;
import dev.hoplock.core.time.VirtualTime;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Ownership at scale (issue 24), in virtual time: N members (default 10, 100 and 1,000) of one group at the default
 * TTL (30 s; renew 10 s, poll 2 s) over one in-memory store reached through a simulated network, each member with its
 * own connection: every request takes effect after a one-way delay and its answer arrives after another, each drawn
 * uniformly from {@code -Dbench.scale.latencyMs} (default 5..25 ms), so that a read and the compare-and-swap that
 * follows it leave a window in which another member's write is refused, as on a real store. Everything is counted at
 * the store: requests, registry reads and writes, refused registry writes, registry bytes read.
 *
 * <p>Per N it measures, in this order, on one group:
 * <ul>
 *   <li><b>formation</b>: all N members started at one instant, until every member acts under one view of all N
 *       members and every sample key is acted on by its owner; from {@code -Dbench.scale.seedFrom} members on
 *       (default 1,000) the group starts from a registry written as a formed group's (see {@code seed()}), and the
 *       formation is not measured;</li>
 *   <li><b>steady state</b>: store requests per hour (a window of {@code -Dbench.scale.windowMinutes}, default 60; 5 at N = 1,000,
 *       scaled to the hour) against the model 1,080 x N, the registry's size, and the registry bytes read per hour;</li>
 *   <li><b>join</b>, <b>graceful leave</b> ({@code closeAsync()}), <b>crash</b> (every request of the member fails
 *       from one instant on, as a dead process looks to the store): from the event until (a) every live member acts
 *       under the new view, (b) every sample key (200) is acted on by its owner under the new membership (the
 *       settle time asked for: one acting owner per key again, all views agreeing), and (c) every member's
 *       acknowledgement of the new epoch is in the registry; with the registry writes, refused writes and store
 *       requests from the event until (c);</li>
 *   <li><b>memory</b>: heap used after a full GC ({@code MemoryMXBean}, after {@code System.gc()} twice) before the
 *       members were built and after the group formed, over N (a member's whole state, its decoded registry
 *       included); and per cached key: one member's checks of 60,000 distinct keys (below the per-view cache's
 *       capacity of 65,536, which clears itself when full), heap after GC before and after, over 60,000 (the key
 *       strings exist before and are not counted), with the time per check, cold (first pass) and cached (best of
 *       four more passes); then a walk of {@code -Dbench.scale.walkKeys} further distinct keys (default 1,000,000;
 *       100,000 at N = 1,000): the time per check, and the heap the cache retains after it.</li>
 * </ul>
 * Writes {@code ownership-scale.csv} (one row per N and measure) and {@code ownership-scale.properties}.
 */
public final class OwnershipScaleBench {

    private static final Instant START = Instant.parse("2026-12-01T00:00:00Z");
    private static final Duration STEP = Duration.ofMillis(50);
    private static final Duration PHASE_LIMIT = Duration.ofMinutes(20);
    private static final int SAMPLE_KEYS = 200;
    /** Keys that move at each change (found before it), checked beside the sample: at N = 1,000 a sample of 200
     *  holds no key of the member that joins or leaves. */
    private static final int MOVING_KEYS = 20;
    /** Below the per-view cache's capacity (65,536), with room for the sample keys already cached. */
    private static final int CACHE_KEYS = 60_000;

    private OwnershipScaleBench() {
    }

    public static void main(String[] args) {
        String sizes = System.getProperty("bench.scale.members", "10,100,1000");
        Map<String, Object> summary = new LinkedHashMap<>();
        List<List<?>> rows = new ArrayList<>();
        String[] latency = System.getProperty("bench.scale.latencyMs", "5..25").split("\\.\\.");
        long minNanos = Duration.ofMillis(Long.parseLong(latency[0])).toNanos();
        long maxNanos = Duration.ofMillis(Long.parseLong(latency[1])).toNanos();
        summary.put("latency.ms", latency[0] + ".." + latency[1]);
        summary.put("members", sizes);
        for (String size : sizes.split(",")) {
            int n = Integer.parseInt(size.trim());
            Scale scale = new Scale(n, minNanos, maxNanos);
            Map<String, Object> run;
            try {
                run = scale.run();
            } catch (IllegalStateException e) {
                System.out.println(e.getMessage());
                run = scale.out;
                run.put("failed", e.getMessage());
            }
            run.forEach((k, v) -> {
                summary.put(n + "." + k, v);
                rows.add(List.of(n, k, v));
            });
            Results.writeCsv("ownership-scale.csv", List.of("members", "measure", "value"), rows);
            Results.writeSummary("ownership-scale.properties", summary);
        }
        System.exit(0);
    }

    /** One group of N members, measured phase by phase. */
    private static final class Scale {
        private final int n;
        private final long minNanos;
        private final long maxNanos;
        private final VirtualTime time = new VirtualTime(START);
        private final InMemoryBackend store = new InMemoryBackend();
        private final Counters counters = new Counters();
        private final List<String> ids = new ArrayList<>();
        private final Map<String, OwnershipGroup> members = new LinkedHashMap<>();
        private final Map<String, Net> nets = new LinkedHashMap<>();
        private final List<String> sample = new ArrayList<>();
        private List<String> moving = List.of();
        private final Map<String, Object> out = new LinkedHashMap<>();

        Scale(int n, long minNanos, long maxNanos) {
            this.n = n;
            this.minNanos = minNanos;
            this.maxNanos = maxNanos;
            for (int k = 0; k < SAMPLE_KEYS; k++) {
                sample.add("tenant-" + k);
            }
        }

        Map<String, Object> run() {
            long heapBefore = heapAfterGc();
            boolean seeded = n >= Integer.getInteger("bench.scale.seedFrom", 1000);
            if (seeded) {
                seed();
            }
            out.put("formation.seeded", seeded ? 1 : 0);
            for (int i = 0; i < n; i++) {
                add(String.format(Locale.ROOT, "member-%04d", i));
            }
            long wallStart = System.nanoTime();
            double formed = awaitSeconds(this::agreeAndOwned, "formation");
            out.put("formation.s", round(formed));
            awaitSeconds(this::allAcknowledged, "formation acknowledgements");
            out.put("formation.registryWrites", counters.registryWrites);
            out.put("formation.refused", counters.refused);
            System.out.printf(Locale.ROOT, "N=%d " + (seeded ? "(seeded) " : "") + "formed in %.1f s virtual (%.0f s real), %d registry writes, %d"
                    + " refused%n", n, formed, (System.nanoTime() - wallStart) / 1e9, counters.registryWrites,
                    counters.refused);
            time.advance(Duration.ofSeconds(30));
            long heapAfter = heapAfterGc();
            out.put("memory.perMember.bytes", (heapAfter - heapBefore) / n);

            // Steady state.
            long windowMinutes = Long.getLong("bench.scale.windowMinutes", n >= 1000 ? 5 : 60);
            counters.reset();
            time.advance(Duration.ofMinutes(windowMinutes));
            double scale = 60.0 / windowMinutes;
            out.put("steady.windowMinutes", windowMinutes);
            out.put("steady.requestsPerHour", Math.round(counters.requests * scale));
            out.put("steady.model", 1_080L * n);
            out.put("steady.registryReadsPerHour", Math.round(counters.registryReads * scale));
            out.put("steady.registryBytesReadPerHour", Math.round(counters.registryBytesRead * scale));
            out.put("steady.refusedPerHour", Math.round(counters.refused * scale));
            out.put("registry.bytes", registrySize());
            System.out.printf(Locale.ROOT, "N=%d steady: %d requests/hour (model %d), registry %d bytes%n", n,
                    Math.round(counters.requests * scale), 1_080L * n, registrySize());

            // A join, a graceful leave, a crash.
            String joiner = "member-join";
            phase("join", () -> add(joiner), List.of(), joiner);
            String leaver = ids.get(n / 2);
            phase("leave", () -> member(leaver).closeAsync(), List.of(leaver), null);
            String crashed = ids.get(n / 3);
            phase("crash", () -> java.util.Objects.requireNonNull(nets.get(crashed)).sever(), List.of(crashed),
                    null);

            cacheMemory();
            return out;
        }

        private OwnershipGroup member(String id) {
            return java.util.Objects.requireNonNull(members.get(id), id);
        }

        /**
         * Writes the registry a formed group of N members would hold (epoch 1, every member registered under the
         * first generation of its liveness lease and acknowledging epoch 1, a settled incarnation), so that the
         * members start as a formed group: a mass start of 1,000 members costs the simulation about a registry decode
         * of tens of kilobytes per member per poll for many minutes of virtual time. Only the formation is skipped;
         * every later figure is the protocol's own.
         */
        private void seed() {
            StringBuilder body = new StringBuilder("hoplock-registry 2\nepoch 1\nseq 1\nincarnation seeded settled\n");
            for (int i = 0; i < n; i++) {
                String id = String.format(Locale.ROOT, "member-%04d", i);
                body.append("member 1 1 30000 ").append(id).append(" p-").append(id).append(" ~\n");
            }
            byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
            java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
            crc.update(bytes);
            store.put("scale/registry", (body + String.format(Locale.ROOT, "end %08x\n", crc.getValue()))
                    .getBytes(StandardCharsets.UTF_8));
        }

        private void add(String id) {
            Net net = new Net(id.hashCode());
            OwnershipGroup group = OwnershipGroup.builder(net, "scale").memberId(id).owner("p-" + id)
                    .timeSource(time).scheduler(time).eventExecutor(Runnable::run).build();
            ids.add(id);
            members.put(id, group);
            nets.put(id, net);
            group.start();
        }

        /** One change: runs {@code change}, then measures until the views agree, the keys are owned, all acked. */
        private void phase(String name, Runnable change, List<String> departing,
                           @org.jspecify.annotations.Nullable String joining) {
            moving = Moving.find(ids, departing, joining, MOVING_KEYS);
            counters.reset();
            long t0 = time.nanoTime();
            change.run();
            for (String id : departing) {
                ids.remove(id);
            }
            double views = awaitSeconds(this::agree, name + ": views agree");
            double keys = awaitSeconds(this::agreeAndOwned, name + ": keys owned");
            long refusedAtKeys = counters.refused;
            double acked = awaitSeconds(this::allAcknowledged, name + ": all acknowledged");
            long elapsed = time.nanoTime() - t0;
            out.put(name + ".views.s", round(elapsed(t0, views)));
            out.put(name + ".keys.s", round(elapsed(t0, keys)));
            out.put(name + ".acked.s", round(elapsed(t0, acked)));
            out.put(name + ".registryWrites", counters.registryWrites);
            out.put(name + ".refused", counters.refused);
            out.put(name + ".refusedUntilKeys", refusedAtKeys);
            out.put(name + ".requests", counters.requests);
            System.out.printf(Locale.ROOT, "N=%d %s: views agree after %.1f s, keys owned after %.1f s, all acked"
                    + " after %.1f s; %d registry writes, %d refused (%d until the keys were owned), %d requests in"
                    + " %.1f s%n", n, name, elapsed(t0, views), elapsed(t0, keys), elapsed(t0, acked),
                    counters.registryWrites, counters.refused, refusedAtKeys, counters.requests, elapsed / 1e9);
            time.advance(Duration.ofSeconds(30));
        }

        private double elapsed(long t0, double absoluteSeconds) {
            return absoluteSeconds - t0 / 1e9;
        }

        /** Every live member acts under one view, whose member ids are exactly the live ones. */
        private boolean agree() {
            long epoch = -1;
            for (String id : ids) {
                OwnershipGroup group = member(id);
                if (!group.isMember()) {
                    return false;
                }
                long e = group.epoch().orElse(-1);
                if (epoch == -1) {
                    epoch = e;
                } else if (e != epoch) {
                    return false;
                }
            }
            java.util.Set<String> live = new java.util.HashSet<>(ids);
            OwnershipGroup any = member(ids.get(0));
            List<Member> view = any.members().members();
            if (view.size() != ids.size()) {
                return false;
            }
            for (Member m : view) {
                if (!live.contains(m.id())) {
                    return false;
                }
            }
            return true;
        }

        /** {@link #agree()}, and every sample key acted on by its owner under the live members. */
        private boolean agreeAndOwned() {
            if (!agree()) {
                return false;
            }
            List<Member> live = ids.stream().map(Member::of).toList();
            MembershipView view = MembershipView.of(0, live);
            for (List<String> keys : List.of(moving, sample)) {
                for (String key : keys) {
                    String owner = Rendezvous.owner(key, view).orElseThrow().id();
                    if (!member(owner).isOwner(key)) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** The registry as stored lists exactly the live members, each acknowledging its epoch. */
        private boolean allAcknowledged() {
            String text = registryText();
            if (text == null) {
                return false;
            }
            long epoch = -1;
            int entries = 0;
            for (String line : text.split("\n")) {
                if (line.startsWith("epoch ")) {
                    epoch = Long.parseLong(line.substring(6));
                } else if (line.startsWith("member ")) {
                    entries++;
                    if (Long.parseLong(line.split(" ")[1]) < epoch) {
                        return false;
                    }
                }
            }
            return entries == ids.size() && agree();
        }

        private @org.jspecify.annotations.Nullable String registryText() {
            Optional<StoredObject> object = store.read("scale/registry", Duration.ofSeconds(1));
            return object.map(o -> new String(o.content(), StandardCharsets.UTF_8)).orElse(null);
        }

        private int registrySize() {
            return store.read("scale/registry", Duration.ofSeconds(1)).map(StoredObject::size).orElse(0);
        }

        /** Advances virtual time in steps until {@code condition}; returns the virtual time (s) it first held. */
        private double awaitSeconds(BooleanSupplier condition, String what) {
            long limit = time.nanoTime() + PHASE_LIMIT.toNanos();
            while (!condition.getAsBoolean()) {
                if (time.nanoTime() > limit) {
                    throw new IllegalStateException("N=" + n + ": not reached within " + PHASE_LIMIT + " of virtual"
                            + " time: " + what);
                }
                time.advance(STEP);
                if (n >= 1000 && time.nanoTime() % 60_000_000_000L < STEP.toNanos()) {
                    System.out.printf(Locale.ROOT, "N=%d: %s, %.0f s of virtual time%n", n, what,
                            time.nanoTime() / 1e9);
                }
            }
            return time.nanoTime() / 1e9;
        }

        /** Memory per cached key and the time per check, on one member (virtual time does not move meanwhile). */
        private void cacheMemory() {
            OwnershipGroup member = member(ids.get(0));
            int walk = Integer.getInteger("bench.scale.walkKeys", n >= 1000 ? 100_000 : 1_000_000);
            String[] keys = new String[CACHE_KEYS + walk];
            for (int k = 0; k < keys.length; k++) {
                keys[k] = "customer-" + k;
            }
            long before = heapAfterGc();
            long owned = 0;
            long t0 = System.nanoTime();
            for (int k = 0; k < CACHE_KEYS; k++) {
                owned += member.isOwner(keys[k]) ? 1 : 0;
            }
            long cold = System.nanoTime() - t0;
            long after = heapAfterGc();
            t0 = System.nanoTime();
            for (int k = 0; k < CACHE_KEYS; k++) {
                owned += member.isOwner(keys[k]) ? 1 : 0;
            }
            long warm = System.nanoTime() - t0;
            for (int pass = 0; pass < 4; pass++) {
                t0 = System.nanoTime();
                for (int k = 0; k < CACHE_KEYS; k++) {
                    owned += member.isOwner(keys[k]) ? 1 : 0;
                }
                warm = Math.min(warm, System.nanoTime() - t0);
            }
            out.put("cache.perKey.bytes", round((after - before) / (double) CACHE_KEYS));
            out.put("cache.coldCheck.ns", Math.round(cold / (double) CACHE_KEYS));
            out.put("cache.cachedCheck.ns", Math.round(warm / (double) CACHE_KEYS));
            // A walk over more distinct keys than the cache holds: every check is a miss; memory stays bounded.
            t0 = System.nanoTime();
            for (int k = CACHE_KEYS; k < keys.length; k++) {
                owned += member.isOwner(keys[k]) ? 1 : 0;
            }
            long walkNanos = System.nanoTime() - t0;
            long walkAfter = heapAfterGc();
            out.put("walk.keys", walk);
            out.put("walk.check.ns", Math.round(walkNanos / (double) walk));
            out.put("walk.retained.bytes", walkAfter - before);
            out.put("walk.owned", owned);
            System.out.printf(Locale.ROOT, "N=%d cache: %.1f bytes per cached key, %d ns per cold check, %d ns per"
                    + " cached check; a walk of %,d distinct keys: %d ns per check, %,d bytes retained by the cache%n",
                    n, (after - before) / (double) CACHE_KEYS, Math.round(cold / (double) CACHE_KEYS),
                    Math.round(warm / (double) CACHE_KEYS), walk, Math.round(walkNanos / (double) walk),
                    walkAfter - before);
            Arrays.fill(keys, null);
        }

        /** A member's own connection to the store: latency both ways, counted, severable (a crash). */
        private final class Net implements AsyncBackend {
            private final SplittableRandom random;
            private boolean severed;

            Net(long seed) {
                this.random = new SplittableRandom(seed);
            }

            void sever() {
                severed = true;
            }

            private long delay() {
                return minNanos + random.nextLong(Math.max(1, maxNanos - minNanos + 1));
            }

            private <T> CompletionStage<T> send(String key, Supplier<T> request, boolean write) {
                CompletableFuture<T> answer = new CompletableFuture<>();
                if (severed) {
                    answer.completeExceptionally(new BackendException(BackendException.Kind.UNREACHABLE,
                            "severed (crash)"));
                    return answer;
                }
                counters.requests++;
                boolean registry = key.endsWith("/registry");
                long back = delay();
                time.schedule(() -> {
                    T result = request.get();
                    if (registry) {
                        if (write) {
                            counters.registryWrites++;
                            if (!(result instanceof WriteResult.Written)) {
                                counters.refused++;
                            }
                        } else {
                            counters.registryReads++;
                            if (result instanceof Optional<?> o && o.isPresent()) {
                                counters.registryBytesRead += ((StoredObject) o.get()).size();
                            }
                        }
                    }
                    time.schedule(() -> answer.complete(result), Duration.ofNanos(back));
                }, Duration.ofNanos(delay()));
                return answer;
            }

            @Override
            public CompletionStage<Optional<StoredObject>> read(String key, Duration timeout) {
                return send(key, () -> store.read(key, timeout), false);
            }

            @Override
            public CompletionStage<WriteResult> write(String key, Handle expected, byte[] content, Duration timeout) {
                return send(key, () -> store.write(key, expected, content, timeout), true);
            }

            @Override
            public CompletionStage<DeleteResult> delete(String key, Handle expected, Duration timeout) {
                return send(key, () -> store.delete(key, expected, timeout), true);
            }

            @Override
            public String describe() {
                return "simulated network to an in-memory store";
            }
        }
    }

    /** Counts at the store (one thread: the virtual time's). */
    private static final class Counters {
        long requests;
        long registryReads;
        long registryWrites;
        long refused;
        long registryBytesRead;

        void reset() {
            requests = 0;
            registryReads = 0;
            registryWrites = 0;
            refused = 0;
            registryBytesRead = 0;
        }
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
