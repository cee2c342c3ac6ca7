package dev.hoplock.redis;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.CallBudget;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Durability;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.LeaseKeys;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.record.LeaseRecordCodec;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link Backend} over Redis (one server, a Sentinel-monitored primary, or a Redis Cluster) through Lettuce, for any
 * number of lease keys: the lease key {@code k} lives in the Redis key {@code <prefix>k}.
 *
 * <h2>Layout and operations</h2>
 * A lease is a hash: field {@code record} holds the lease record's bytes unchanged (the JSON shared with Go hoplock),
 * field {@code version} the {@link Handle}. Create-if-absent, compare-and-swap and conditional delete are Lua scripts
 * ({@link LeaseScripts}), sent with {@code EVALSHA} (and once with {@code EVAL} when the server has not cached the
 * script, {@code NOSCRIPT}, which ran nothing). Redis runs a script atomically on one thread, so a check and its write
 * cannot be separated by another client's write: of concurrent writes expecting one version, exactly one matches.
 * A read is a script too, which returns at most {@code MAX_SIZE + 1} bytes of the record.
 *
 * <h2>Versions: random, never reused</h2>
 * Every write stores a new version, 128 random bits from {@link SecureRandom} drawn by this backend, so a version is
 * never reused: not after a delete, not after the data set was flushed or restored from an older snapshot, not after a
 * failover to a replica that missed writes. A per-key counter would repeat in each of those cases (its count is lost
 * with the key, or rolls back with the data set), and a stale holder's old version could then match a newer holder's
 * record. The version is known before the write is sent, so a write's handle needs no second round trip.
 *
 * <h2>Time, unknown outcomes and WAIT</h2>
 * Every call is bounded by its {@link CallBudget} (the caller's timeout capped by the request timeout), connecting
 * included. A write whose answer did not arrive in time, or whose connection dropped, is a
 * {@link Kind#TRANSIENT} exception saying that the outcome is unknown; Lettuce never sends a command twice (see
 * {@link LettuceOptions}). With {@link RedisBackendBuilder#waitForReplicas(int)} n &gt; 0, every successful write is
 * followed by {@code WAIT n} on the same connection, and a write that reached fewer than n replicas within the budget
 * is an unknown outcome too (it is on the primary, and a failover could lose it). Reads then write the version again
 * unchanged and wait as well ({@link LeaseScripts#READ_REPLICATED}), so that nothing a failover could lose is read as
 * the lease: a read costs a write and a {@code WAIT}.
 *
 * <h2>Durability</h2>
 * {@link #verify()} reads each primary's role, replicas and persistence and reports what an acknowledged write is
 * promised ({@link Durability}, see {@link DurabilityAssessment}); it refuses a replica as the target, a {@code WAIT}
 * for more replicas than are connected, and a durability below
 * {@link RedisBackendBuilder#minimumDurability(Durability)}.
 *
 * <h2>Errors and secrets</h2>
 * Failures are translated by {@link RedisErrors} (kind, cause and fix); no message, log line, {@link #describe()} or
 * {@link #toString()} contains the password or the user name.
 *
 * <p>Thread-safe: one connection (per cluster node) multiplexes all calls. {@link #close()} closes it, and the Lettuce
 * client if the builder created it.
 */
public final class RedisBackend implements Backend, AutoCloseable {

    /** {@link #DEFAULT_REQUEST_TIMEOUT} in seconds, a compile-time constant for configuration layers. */
    public static final long DEFAULT_REQUEST_TIMEOUT_SECONDS = 10;
    /** The longest a call may take when the caller allows longer. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(DEFAULT_REQUEST_TIMEOUT_SECONDS);
    /** The default key prefix. */
    public static final String DEFAULT_PREFIX = KeyPrefix.DEFAULT;

    private static final byte[] READ_LIMIT = Integer.toString(LeaseRecordCodec.MAX_SIZE + 1)
            .getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final RedisLink link;
    private final KeyPrefix prefix;
    private final String description;
    private final Duration requestTimeout;
    private final int waitForReplicas;
    private final RedisErrors errors;
    private final StartupCheck check;

    RedisBackend(RedisLink link, RedisTarget target, KeyPrefix prefix, Duration requestTimeout, int waitForReplicas,
            Durability minimumDurability, Redaction redaction) {
        this.link = Objects.requireNonNull(link, "link");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.description = target.describe() + " prefix " + prefix;
        this.requestTimeout = requestTimeout;
        this.waitForReplicas = waitForReplicas;
        this.errors = new RedisErrors(description, prefix, redaction);
        this.check = new StartupCheck(this, minimumDurability);
    }

    /** Starts the configuration of a Redis backend. */
    public static RedisBackendBuilder builder() {
        return new RedisBackendBuilder();
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        LeaseKeys.validate(key);
        byte[] redisKey = prefix.redisKey(key);
        CallBudget budget = budget("read", key, timeout);
        RedisClusterAsyncCommands<byte[], byte[]> commands = connect(redisKey, budget);
        LeaseScripts script = waitForReplicas > 0 ? LeaseScripts.READ_REPLICATED : LeaseScripts.READ;
        List<Object> reply = run(() -> this.<List<Object>>eval(commands, script, ScriptOutputType.MULTI, redisKey,
                budget, READ_LIMIT), "read", key, budget, false);
        if (reply.isEmpty()) {
            return Optional.empty();
        }
        if (waitForReplicas > 0) {
            awaitReplicas(commands, budget, "read", key, false);
        }
        byte[] content = (byte[]) reply.get(0);
        String version = new String((byte[]) reply.get(1), StandardCharsets.UTF_8);
        if (version.isEmpty()) {
            throw new BackendException(Kind.MISCONFIGURED, "the Redis key of lease '" + key + "' in " + description
                    + " is a hash without hoplock's version field: another program uses keys under the prefix '"
                    + prefix + "'; give hoplock a prefix of its own (prefix)");
        }
        return Optional.of(new StoredObject(content, Handle.of(version)));
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        LeaseKeys.validate(key);
        Objects.requireNonNull(expected, "expected");
        byte[] bytes = Objects.requireNonNull(content, "content").clone();
        byte[] redisKey = prefix.redisKey(key);
        String operation = expected.isNone() ? "create" : "compare-and-swap";
        CallBudget budget = budget(operation, key, timeout);
        RedisClusterAsyncCommands<byte[], byte[]> commands = connect(redisKey, budget);
        Handle next = newVersion();
        byte[] version = next.value().getBytes(StandardCharsets.US_ASCII);
        long answer = run(() -> expected.isNone()
                ? this.<Long>eval(commands, LeaseScripts.CREATE, ScriptOutputType.INTEGER, redisKey, budget, bytes,
                        version)
                : this.<Long>eval(commands, LeaseScripts.SWAP, ScriptOutputType.INTEGER, redisKey, budget, bytes,
                        version, expected.value().getBytes(StandardCharsets.UTF_8)), operation, key, budget, true);
        if (answer == 1) {
            awaitReplicas(commands, budget, operation, key, true);
            return WriteResult.written(next);
        }
        return answer == 0 ? WriteResult.preconditionFailed() : WriteResult.notFound();
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        LeaseKeys.validate(key);
        Objects.requireNonNull(expected, "expected");
        byte[] redisKey = prefix.redisKey(key);
        CallBudget budget = budget("delete", key, timeout);
        RedisClusterAsyncCommands<byte[], byte[]> commands = connect(redisKey, budget);
        long answer = run(() -> this.<Long>eval(commands, LeaseScripts.DELETE, ScriptOutputType.INTEGER, redisKey,
                budget, expected.value().getBytes(StandardCharsets.UTF_8)), "delete", key, budget, true);
        if (answer == 1) {
            awaitReplicas(commands, budget, "delete", key, true);
            return DeleteResult.DELETED;
        }
        return answer == 0 ? DeleteResult.PRECONDITION_FAILED : DeleteResult.NOT_FOUND;
    }

    /**
     * Checks the store and reports what it promises, asking the server every time (its settings may change): that
     * each primary answers as a primary, that the user may run the scripts on keys under the prefix (a create, a stale
     * swap and a delete on a side key {@code .hoplock-probe/<random>}), that enough replicas are connected for the
     * {@code WAIT}, and what an acknowledged write is promised ({@link StoreCapabilities#durability()}, with the
     * settings it was read from). Logs the durability at INFO (at WARN below {@link Durability#KEPT}) when it first
     * sees it and when it changes.
     *
     * @return create, swap and delete {@link StoreCapabilities.Support#VERIFIED}, and the durability
     * @throws BackendException {@link Kind#MISCONFIGURED} for a replica as the target, too few replicas for the
     *                          {@code WAIT}, or a durability below the minimum, each naming the server's settings and the
     *                          fix; {@link Kind#ACCESS_DENIED} for a password or an ACL that refuses what hoplock needs;
     *                          {@link Kind#UNREACHABLE} when the server cannot be reached
     */
    @Override
    public StoreCapabilities verify() throws BackendException {
        return check.run();
    }

    /** {@code redis://host:port/db prefix hoplock:} (or the Sentinel or cluster form); never credentials. */
    @Override
    public String describe() {
        return description;
    }

    /** The Redis key that holds {@code leaseKey}: the prefix followed by the key. */
    public String redisKey(String leaseKey) {
        return prefix + LeaseKeys.validate(leaseKey);
    }

    /** The number of replicas every write waits for (0: none). */
    public int waitForReplicas() {
        return waitForReplicas;
    }

    /** Closes the connection, and the Lettuce client if the builder created it. */
    @Override
    public void close() {
        link.close();
    }

    @Override
    public String toString() {
        return "RedisBackend[" + description + "]";
    }

    RedisLink link() {
        return link;
    }

    RedisErrors errors() {
        return errors;
    }

    Duration requestTimeout() {
        return requestTimeout;
    }

    /** The commands for {@code redisKey}'s node, connecting within the budget; a failure means nothing was sent. */
    RedisClusterAsyncCommands<byte[], byte[]> connect(byte[] redisKey, CallBudget budget) throws BackendException {
        try {
            return link.forKey(redisKey, budget);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendException(Kind.TRANSIENT, "interrupted while connecting to " + description
                    + "; nothing was sent", e);
        } catch (Exception e) {
            throw errors.connecting(e, budget);
        }
    }

    /** One step of a call, whose failure {@link RedisErrors#executing} translates. */
    @FunctionalInterface
    interface Step<T> {
        T run() throws Exception;
    }

    <T> T run(Step<T> step, String operation, @Nullable String key, CallBudget budget, boolean change)
            throws BackendException {
        try {
            return step.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendException(Kind.TRANSIENT, "interrupted during the " + RedisErrors.target(operation, key)
                    + " on " + description + (change ? "; the outcome is unknown" : ""), e);
        } catch (Exception e) {
            if ("MOVED".equals(RedisErrors.serverCode(RedisErrors.unwrap(e)))) {
                link.refreshTopology();
            }
            throw errors.executing(e, operation, key, budget, change);
        }
    }

    /** Runs {@code script} by its digest, and by its text once if the server has not cached it (NOSCRIPT ran nothing). */
    <T> T eval(RedisClusterAsyncCommands<byte[], byte[]> commands, LeaseScripts script, ScriptOutputType type,
            byte[] redisKey, CallBudget budget, byte[]... args) throws Exception {
        byte[][] keys = {redisKey};
        try {
            return await(commands.<T>evalsha(script.sha1(), type, keys, args), budget);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RedisNoScriptException
                    || "NOSCRIPT".equals(RedisErrors.serverCode(e.getCause()))) {
                return await(commands.<T>eval(script.body(), type, keys, args), budget);
            }
            throw e;
        }
    }

    /**
     * After a write (or a replicated read) that changed the replication stream: {@code WAIT n} on the same connection,
     * with the server's timeout a little inside the budget so that its answer arrives before the budget ends.
     */
    private void awaitReplicas(RedisClusterAsyncCommands<byte[], byte[]> commands, CallBudget budget,
            String operation, String key, boolean change) throws BackendException {
        if (waitForReplicas == 0) {
            return;
        }
        long left = budget.millisLeft();
        // The server's answer must arrive before the budget ends, on a loaded machine too.
        long serverTimeout = left - Math.max(Math.min(left / 4, 500), 1);
        String target = RedisErrors.target(operation, key);
        String outcome = change ? "the write is on the primary only, where a failover could lose it; the outcome is"
                + " unknown" : "the record read is on the primary only, where a failover could lose it";
        if (serverTimeout < 1) {
            throw new BackendException(Kind.TRANSIENT, "no time left to WAIT for " + waitForReplicas + " replicas after"
                    + " the " + target + " on " + description + ": " + outcome);
        }
        long acknowledged = run(() -> await(commands.waitForReplication(waitForReplicas, serverTimeout), budget),
                "WAIT after the " + operation, key, budget, change);
        if (acknowledged < waitForReplicas) {
            throw new BackendException(Kind.TRANSIENT, "after the " + target + " on " + description + ", only "
                    + acknowledged + " of " + waitForReplicas + " replicas acknowledged it within " + serverTimeout
                    + " ms (WAIT): " + outcome + ". Check that the replicas are connected and keep up (INFO"
                    + " replication on the primary)");
        }
    }

    /** The answer of {@code future} within the budget; on timeout the command is cancelled (its answer ignored). */
    static <T> T await(RedisFuture<T> future, CallBudget budget) throws Exception {
        try {
            return future.get(budget.millisLeft(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(false);
            throw e;
        }
    }

    private CallBudget budget(String operation, String key, Duration timeout) throws BackendException {
        return CallBudget.forCall(timeout, requestTimeout, () -> "the " + RedisErrors.target(operation, key) + " on "
                + description);
    }

    /** A fresh version: 128 random bits, as 32 hex digits. */
    static Handle newVersion() {
        byte[] bits = new byte[16];
        RANDOM.nextBytes(bits);
        return Handle.of(HexFormat.of().formatHex(bits));
    }
}
