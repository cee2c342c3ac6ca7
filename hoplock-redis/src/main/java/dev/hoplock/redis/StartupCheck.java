package dev.hoplock.redis;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.CallBudget;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Durability;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.StoreCapabilities.Support;
import dev.hoplock.core.backend.WriteResult;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@link RedisBackend#verify()}: in four steps, each failing with a message that names the store (never credentials),
 * what the server said and the fix.
 * <ol>
 *   <li><b>The primaries answer</b> {@code INFO} (role, replicas, persistence) and {@code CONFIG GET appendfsync} and
 *       {@code min-replicas-to-write}. A user without {@code +info} or {@code +config|get} (or a managed service that
 *       renamed {@code CONFIG}) is not refused: what could not be read promises nothing. A replica as the target is
 *       refused ({@link Kind#MISCONFIGURED}).</li>
 *   <li><b>Enough replicas</b> are connected for {@link RedisBackendBuilder#waitForReplicas(int)}: otherwise every
 *       write would end as an unknown outcome.</li>
 *   <li><b>The durability</b> ({@link DurabilityAssessment}) is at least the minimum (checked before anything is
 *       written, so that an elector that keeps checking a refused store writes nothing).</li>
 *   <li><b>The scripts run</b> on a side key {@code <prefix>.hoplock-probe/<random>}: a create is written, a swap with
 *       another version is refused, and a delete with the current version removes it. This is where a password or an
 *       ACL that forbids {@code EVALSHA}/{@code EVAL} or the keys under the prefix, or a read-only replica, shows.</li>
 * </ol>
 */
final class StartupCheck {

    static final String PROBE_DIRECTORY = ".hoplock-probe";

    /**
     * The least time the check gives the first connection, whatever the request timeout: it loads and starts
     * Lettuce's event loops, which takes seconds on a loaded machine. A server that refuses the connection fails at
     * once, and one that does not answer at all within the connect timeout; only a slow start waits longer.
     */
    static final Duration FIRST_CONNECTION = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(RedisBackend.class);

    private final RedisBackend backend;
    private final Durability minimum;
    private @Nullable Durability lastLogged;

    StartupCheck(RedisBackend backend, Durability minimum) {
        this.backend = backend;
        this.minimum = minimum;
    }

    StoreCapabilities run() throws BackendException {
        RedisErrors errors = backend.errors();
        CallBudget budget = CallBudget.of(longer(backend.requestTimeout(), FIRST_CONNECTION));
        List<RedisLink.Node> nodes;
        try {
            nodes = backend.link().primaries(budget);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendException(Kind.TRANSIENT, "interrupted while connecting to " + errors.store(), e);
        } catch (Exception e) {
            throw errors.connecting(e, budget);
        }
        List<ServerFacts> facts = new ArrayList<>();
        for (RedisLink.Node node : nodes) {
            ServerFacts primary = facts(node, CallBudget.of(backend.requestTimeout()));
            if (!primary.isReplica()) {
                primary = primary.withReplicas(replicas(primary));
            }
            facts.add(primary);
        }
        for (ServerFacts primary : facts) {
            if (primary.isReplica()) {
                throw new BackendException(Kind.MISCONFIGURED, "cannot use " + errors.store() + ": " + primary.node()
                        + " is a read-only replica of " + primary.primaryOfReplica() + " (INFO replication: role:slave),"
                        + " and hoplock must write to the primary. Point hoplock at the primary, or at the Sentinels"
                        + " (redis-sentinel://host:26379,host:26380/0#mymaster) so that it follows the primary through"
                        + " failovers");
            }
            int replicas = primary.connectedReplicas();
            int wanted = backend.waitForReplicas();
            if (wanted > 0 && replicas >= 0 && replicas < wanted) {
                throw new BackendException(Kind.MISCONFIGURED, "cannot use " + errors.store() + ": every write waits"
                        + " for " + wanted + (wanted == 1 ? " replica" : " replicas") + " (waitForReplicas), but "
                        + primary.node() + " has " + replicas + " connected (INFO replication: connected_slaves), so"
                        + " every write would end with an unknown outcome. Connect the replicas (replicaof on each),"
                        + " or wait for fewer");
            }
        }
        DurabilityAssessment durability = DurabilityAssessment.of(facts, backend.waitForReplicas());
        if (!durability.level().atLeast(minimum)) {
            throw new BackendException(Kind.MISCONFIGURED, "hoplock refuses " + errors.store() + ": acknowledged"
                    + " writes are " + durability.level().phrase() + " (" + durability.detail() + "), below the"
                    + " minimum durability " + minimum + " (" + minimum.phrase() + "). To fix: "
                    + String.join("; ", durability.fixes()) + ". Or accept it: minimumDurability("
                    + durability.level() + ")");
        }
        probe(errors);
        logOnChange(durability, errors.store());
        return StoreCapabilities.builder(errors.store())
                .set(Capability.CONDITIONAL_CREATE, Support.VERIFIED, "")
                .set(Capability.CONDITIONAL_SWAP, Support.VERIFIED, "")
                .set(Capability.CONDITIONAL_DELETE, Support.VERIFIED, "")
                .durability(durability.level(), durability.detail())
                .build();
    }

    private ServerFacts facts(RedisLink.Node node, CallBudget budget) throws BackendException {
        RedisClusterAsyncCommands<byte[], byte[]> commands = node.commands();
        Map<String, String> info = Map.of();
        String infoRefused = null;
        try {
            info = ServerFacts.parseInfo(backend.run(() -> RedisBackend.await(commands.info(), budget),
                    "INFO", null, budget, false));
        } catch (BackendException e) {
            if (e.kind() != Kind.ACCESS_DENIED) {
                throw e;
            }
            infoRefused = refusal(e);
        }
        String appendfsync = null;
        Integer minReplicas = null;
        String configRefused = null;
        try {
            appendfsync = config(commands, "appendfsync", budget);
            String min = config(commands, "min-replicas-to-write", budget);
            minReplicas = min == null ? null : Integer.valueOf(min);
        } catch (BackendException e) {
            if (e.kind() != Kind.ACCESS_DENIED && e.kind() != Kind.MISCONFIGURED) {
                throw e;
            }
            configRefused = refusal(e);
        } catch (NumberFormatException e) {
            minReplicas = null;
        }
        String name = node.name();
        String port = info.get("tcp_port");
        if (port != null && !name.contains(":" + port + "/") && !name.endsWith(":" + port)) {
            name = name + " (the primary, port " + port + ")";
        }
        return new ServerFacts(name, info, appendfsync, minReplicas, infoRefused, configRefused);
    }

    /**
     * What each replica the primary lists says about its own persistence, over a short connection of its own with the
     * same credentials; a replica that cannot be asked is {@link ServerFacts#unreadable} with the reason (never the
     * client's message, which could name the user).
     */
    private List<ServerFacts> replicas(ServerFacts primary) throws BackendException {
        List<ServerFacts> read = new ArrayList<>();
        for (ServerFacts.ReplicaAddress address : primary.replicaAddresses()) {
            CallBudget budget = CallBudget.of(backend.requestTimeout());
            RedisLink.OtherNode opened;
            try {
                opened = backend.link().open(address.host(), address.port(), budget);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BackendException(Kind.TRANSIENT, "interrupted while connecting to the replica " + address
                        + " of " + backend.errors().store(), e);
            } catch (Exception e) {
                BackendException translated = backend.errors().connecting(e, budget);
                read.add(ServerFacts.unreadable(address.toString(), switch (translated.kind()) {
                    case ACCESS_DENIED -> "it refused hoplock's user name and password";
                    case UNREACHABLE -> "cannot connect to it from here";
                    default -> "no connection within the request timeout";
                }));
                continue;
            }
            try (opened) {
                ServerFacts replica = facts(opened.node(), budget);
                read.add(replica.infoRefused() != null ? ServerFacts.unreadable(replica.node(), "INFO: "
                        + replica.infoRefused()) : replica);
            } catch (BackendException e) {
                read.add(ServerFacts.unreadable(address.toString(), e.kind() == Kind.ACCESS_DENIED
                        ? "the user lacks the permission" : "it did not answer INFO and CONFIG GET"));
            }
        }
        return read;
    }

    private @Nullable String config(RedisClusterAsyncCommands<byte[], byte[]> commands, String name,
            CallBudget budget) throws BackendException {
        Map<String, String> answer = backend.run(() -> RedisBackend.await(commands.configGet(name), budget),
                "CONFIG GET " + name, null, budget, false);
        return answer.get(name);
    }

    private static String refusal(BackendException e) {
        return e.kind() == Kind.ACCESS_DENIED ? "the user lacks the permission" : "the command is not available";
    }

    private void probe(RedisErrors errors) throws BackendException {
        String key = PROBE_DIRECTORY + "/" + RedisBackend.newVersion().value();
        Duration step = backend.requestTimeout();
        try {
            WriteResult created = backend.write(key, Handle.NONE, probeBytes("create"), step);
            if (!(created instanceof WriteResult.Written written)) {
                throw unsupported(errors, key, "refused to create a new key (" + created + ")");
            }
            WriteResult stale = backend.write(key, RedisBackend.newVersion(), probeBytes("stale swap"), step);
            if (!stale.equals(WriteResult.preconditionFailed())) {
                throw unsupported(errors, key, "answered " + stale + " to a swap with another version");
            }
            DeleteResult deleted = backend.delete(key, written.handle(), step);
            if (deleted != DeleteResult.DELETED) {
                throw unsupported(errors, key, "answered " + deleted + " to a delete with the current version");
            }
        } catch (BackendException e) {
            if (e.getMessage() != null && e.getMessage().contains("(READONLY)")) {
                throw new BackendException(Kind.MISCONFIGURED, "cannot use " + errors.store() + ": the server is a"
                        + " read-only replica (it answered READONLY to the start-up check's write). Point hoplock at"
                        + " the primary, or at the Sentinels (redis-sentinel://...) so that it follows the primary", e);
            }
            throw e;
        }
    }

    private static Duration longer(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private static byte[] probeBytes(String step) {
        return ("{\"generation\":0,\"expires_at\":\"0001-01-01T00:00:00Z\",\"owner\":\"hoplock-start-up-check "
                + step + "\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static BackendException unsupported(RedisErrors errors, String key, String what) {
        return new BackendException(Kind.CONDITIONAL_WRITES_NOT_SUPPORTED, errors.store() + " does not run hoplock's"
                + " scripts as Redis does: on the probe key " + key + " it " + what + ". Is this Redis (or Valkey)"
                + " 4.0 or later, reached directly rather than through a proxy that rewrites scripts?");
    }

    private synchronized void logOnChange(DurabilityAssessment durability, String store) {
        if (durability.level() == lastLogged) {
            return;
        }
        lastLogged = durability.level();
        if (durability.level() == Durability.KEPT) {
            log.info("hoplock: {}: acknowledged lease writes are kept ({})", store, durability.detail());
        } else {
            log.warn("hoplock: {}: acknowledged lease writes are {} ({}). A lost lease is an outside delete: a process"
                    + " that saw it steps down or waits, but one that never saw it takes the lease at once, while the"
                    + " holder leads until its next renewal is refused. To keep them: {}", store,
                    durability.level().phrase(), durability.detail(), String.join("; ", durability.fixes()));
        }
    }
}
