package dev.hoplock.spring.actuate;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.election.ElectorSettings;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.core.operations.LeaseInspection;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.core.time.TimeSource;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.ownership.HoplockOwnership;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Reads, for one call of the {@code hoplock} endpoint, the store record of every election, every named lock this
 * instance has used and the ownership group ({@link LeaseInspection}).
 *
 * <p>Guarantees: one store read per record per call, on this reader's own threads (never on a caller's gate path), in
 * parallel; each read is bounded by the request timeout of what it reads (an election's, the ownership group's, or
 * {@code lockTimeout}), and a read that does not answer in time or fails shows as that record's error while the others
 * still show. Writes nothing. The threads are daemons, at most four, ended after a minute idle. At most
 * {@link StoreRecords#MAX_LOCKS} lock records per call (held ones first). Bounded: while any read of an earlier call
 * still runs (a store that hangs holds the threads), a new call reads nothing and says so, and the queue holds at most
 * one call's reads. An error shows a {@link BackendException}'s message, else only the exception's class: a message
 * of anything else might carry a secret.
 */
final class StoreRecordReader {

    private static final int THREADS = 4;
    private static final int QUEUE = StoreRecords.MAX_LOCKS + 16;

    private final Backend backend;
    private final TimeSource time;
    private final Duration lockTimeout;
    private final ExecutorService executor;
    private final AtomicInteger running = new AtomicInteger();

    StoreRecordReader(Backend backend, TimeSource time, Duration lockTimeout) {
        this.backend = backend;
        this.time = time;
        this.lockTimeout = lockTimeout;
        ThreadPoolExecutor pool = new ThreadPoolExecutor(THREADS, THREADS, 1, TimeUnit.MINUTES,
                new ArrayBlockingQueue<>(QUEUE), runnable -> {
                    Thread thread = new Thread(runnable, "hoplock-endpoint-read");
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
        this.executor = pool;
    }

    StoreRecords read(HoplockElections elections, @Nullable HoplockOwnership ownership, @Nullable Locks locks) {
        int still = running.get();
        if (still > 0) {
            return new StoreRecords(backend.describe(), Map.of(), Map.of(), null, Map.of(), "not read: " + still
                    + " read(s) of an earlier call still wait for the store (a store that does not answer); try"
                    + " again later");
        }
        Map<String, Pending> electionReads = new LinkedHashMap<>();
        elections.asMap().forEach((name, elector) -> electionReads.put(name, lease(elector.settings())));
        Map<String, Pending> lockReads = new LinkedHashMap<>();
        String truncated = null;
        if (locks != null) {
            SortedMap<String, String> keys = locks.keysByName();
            List<String> names = lockNames(locks, keys);
            names.forEach(name -> lockReads.put(name, lease(Objects.requireNonNull(keys.get(name), "a name of keys"),
                    null, lockTimeout)));
            if (keys.size() > names.size()) {
                truncated = "showing " + names.size() + " of " + keys.size() + " lock names (those held first, then"
                        + " by name); see a lock's key with hoplock-cli show";
            }
        }
        Map<String, Pending> groupReads = new LinkedHashMap<>();
        if (ownership != null) {
            OwnershipGroup group = ownership.group();
            ElectorSettings member = group.settings();
            String registryKey = group.registryKey();
            groupReads.put("registry", start(registryKey, member.requestTimeout(), () -> {
                boolean present = backend.read(registryKey, member.requestTimeout()).isPresent();
                return StoreRecordDescriptor.registry(registryKey, present);
            }));
            groupReads.put("member", lease(member));
        }
        return new StoreRecords(backend.describe(), finish(electionReads), finish(lockReads), truncated,
                finish(groupReads), null);
    }

    /** The lock names to read: those held first, then the others by name, at most {@link StoreRecords#MAX_LOCKS}. */
    private static List<String> lockNames(Locks locks, SortedMap<String, String> keys) {
        TreeSet<String> chosen = new TreeSet<>();
        for (LockHandle handle : locks.held()) {
            if (keys.containsKey(handle.name())) {
                chosen.add(handle.name());
            }
        }
        List<String> names = new ArrayList<>(chosen);
        while (names.size() > StoreRecords.MAX_LOCKS) {
            names.remove(names.size() - 1);
        }
        for (String name : keys.keySet()) {
            if (names.size() >= StoreRecords.MAX_LOCKS) {
                break;
            }
            if (!chosen.contains(name)) {
                names.add(name);
            }
        }
        return names;
    }

    private Pending lease(ElectorSettings settings) {
        return lease(settings.key(), settings.ttl(), settings.requestTimeout());
    }

    private Pending lease(String key, @Nullable Duration ttl, Duration timeout) {
        LeaseInspection inspection = new LeaseInspection(backend, time, timeout);
        return start(key, timeout, () -> StoreRecordDescriptor.of(inspection.read(key, ttl)));
    }

    /** A read that may throw anything a store throws. */
    private interface Read {
        StoreRecordDescriptor run() throws Exception;
    }

    private record Pending(String key, Duration timeout, long startNanos,
                           CompletableFuture<StoreRecordDescriptor> answer) {
    }

    private Pending start(String key, Duration timeout, Read read) {
        Supplier<StoreRecordDescriptor> task = () -> {
            try {
                return read.run();
            } catch (Exception e) {
                return StoreRecordDescriptor.failed(key, "the read failed: " + safeText(e));
            } finally {
                running.decrementAndGet();
            }
        };
        running.incrementAndGet();
        try {
            return new Pending(key, timeout, System.nanoTime(), CompletableFuture.supplyAsync(task, executor));
        } catch (RejectedExecutionException e) {
            running.decrementAndGet();
            return new Pending(key, timeout, System.nanoTime(), CompletableFuture.completedFuture(
                    StoreRecordDescriptor.failed(key, "not read: too many reads wait for the store")));
        }
    }

    /** A {@link BackendException}'s message (the stores write those without secrets), else only the class. */
    private static String safeText(Throwable e) {
        return e instanceof BackendException ? String.valueOf(e.getMessage()) : e.getClass().getName();
    }

    private static Map<String, StoreRecordDescriptor> finish(Map<String, Pending> pending) {
        Map<String, StoreRecordDescriptor> result = new LinkedHashMap<>();
        pending.forEach((name, read) -> result.put(name, await(read)));
        return result;
    }

    private static StoreRecordDescriptor await(Pending read) {
        long left = read.timeout().toNanos() - (System.nanoTime() - read.startNanos());
        try {
            return read.answer().get(Math.max(0, left), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            read.answer().cancel(true);
            return StoreRecordDescriptor.failed(read.key(), "no answer from the store within "
                    + HumanDurations.format(read.timeout()));
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            return StoreRecordDescriptor.failed(read.key(), "the read failed: "
                    + (cause == null ? e.getClass().getName() : safeText(cause)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return StoreRecordDescriptor.failed(read.key(), "interrupted while waiting for the store");
        }
    }

    void close() {
        executor.shutdownNow();
    }

}
