package dev.hoplock.bench.ownership;

import dev.hoplock.bench.common.Results;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.FilesystemBackend;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.ownership.Member;
import dev.hoplock.core.ownership.MembershipView;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.core.ownership.Rendezvous;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Time until a departed member's keys are owned again: three members of one group over the filesystem store (one
 * JVM, real time, real files), 1,000 keys; then one member departs and we measure, from the departure, until every key
 * it owned is acted on ({@code isOwner} true) by its new owner.
 * <ul>
 *   <li><b>graceful</b>: {@code close()} (stop, deregister, release);</li>
 *   <li><b>crash</b>: from one instant every store request of the departing member fails, as if its process had
 *       died (it also stops acting, at its deadline; for the others it is a member that stopped renewing).</li>
 * </ul>
 * Settings: {@code -Dbench.ownership.reps} (default 5 per mode), {@code -Dbench.ownership.ttlMs} (default 3000; renew
 * TTL/3, poll TTL/15). Writes {@code ownership-handover.csv} and {@code ownership-handover.properties}.
 */
public final class OwnershipHandoverBench {

    private static final int KEYS = 1_000;
    private static final Duration SETTLE = Duration.ofSeconds(60);

    private OwnershipHandoverBench() {
    }

    public static void main(String[] args) throws Exception {
        int reps = Integer.getInteger("bench.ownership.reps", 5);
        Duration ttl = Duration.ofMillis(Long.getLong("bench.ownership.ttlMs", 3000));
        Path dir = Files.createTempDirectory("hoplock-ownership-bench");
        List<String> keys = new ArrayList<>();
        for (int k = 0; k < KEYS; k++) {
            keys.add("tenant-" + k);
        }
        List<List<?>> rows = new ArrayList<>();
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("ttl.ms", ttl.toMillis());
        summary.put("members", 3);
        summary.put("keys", KEYS);
        for (String mode : List.of("graceful", "crash")) {
            double[] millis = new double[reps];
            for (int rep = 0; rep < reps; rep++) {
                millis[rep] = once(dir, mode + "-" + rep, ttl, keys, mode.equals("crash"));
                rows.add(List.of(mode, rep, String.format(Locale.ROOT, "%.1f", millis[rep])));
                System.out.printf(Locale.ROOT, "%s %d: keys owned again after %.0f ms%n", mode, rep, millis[rep]);
            }
            Arrays.sort(millis);
            summary.put(mode + ".reps", reps);
            summary.put(mode + ".min.ms", millis[0]);
            summary.put(mode + ".median.ms", millis[reps / 2]);
            summary.put(mode + ".max.ms", millis[reps - 1]);
        }
        Results.writeCsv("ownership-handover.csv", List.of("mode", "rep", "ms"), rows);
        Results.writeSummary("ownership-handover.properties", summary);
        System.exit(0);
    }

    /** One departure; returns the milliseconds until the departed member's keys are all owned again. */
    private static double once(Path dir, String group, Duration ttl, List<String> keys, boolean crash)
            throws Exception {
        FilesystemBackend store = new FilesystemBackend(dir);
        Severable departing = new Severable(store);
        List<OwnershipGroup> members = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Backend backend = i == 2 ? departing : store;
            members.add(OwnershipGroup.builder(backend, group).memberId("m" + i).ttl(ttl)
                    .releaseTimeout(Duration.ofSeconds(2)).build());
        }
        members.forEach(OwnershipGroup::start);
        MembershipView three = MembershipView.of(0, List.of(Member.of("m0"), Member.of("m1"), Member.of("m2")));
        MembershipView two = MembershipView.of(0, List.of(Member.of("m0"), Member.of("m1")));
        await(() -> keys.stream().allMatch(key -> members.get(index(Rendezvous.owner(key, three))).isOwner(key)),
                "every key owned by its owner among the three");
        List<String> moving = keys.stream().filter(key -> Rendezvous.isOwner(key, "m2", three)).toList();
        long start = System.nanoTime();
        if (crash) {
            departing.sever();
        } else {
            members.get(2).closeAsync();
        }
        await(() -> moving.stream().allMatch(key -> members.get(index(Rendezvous.owner(key, two))).isOwner(key)),
                "the departed member's keys owned again");
        double elapsed = (System.nanoTime() - start) / 1e6;
        members.get(2).closeAsync();
        members.get(0).close();
        members.get(1).close();
        return elapsed;
    }

    private static int index(Optional<Member> owner) {
        return Integer.parseInt(owner.orElseThrow().id().substring(1));
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not reached within " + SETTLE + ": " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** A backend whose every request fails from {@link #sever()} on: a process that died, as the store sees it. */
    private static final class Severable implements Backend {

        private final Backend inner;
        private volatile boolean severed;

        Severable(Backend inner) {
            this.inner = inner;
        }

        void sever() {
            severed = true;
        }

        private void check() throws BackendException {
            if (severed) {
                throw new BackendException(BackendException.Kind.UNREACHABLE, "severed (simulated crash)");
            }
        }

        @Override
        public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
            check();
            return inner.read(key, timeout);
        }

        @Override
        public WriteResult write(String key, Handle expected, byte[] content, Duration timeout)
                throws BackendException {
            check();
            return inner.write(key, expected, content, timeout);
        }

        @Override
        public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
            check();
            return inner.delete(key, expected, timeout);
        }

        @Override
        public String describe() {
            return "severable " + inner.describe();
        }
    }
}
