package dev.hoplock.chaos;

import dev.hoplock.chaos.NodeProcess.Event;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The {@link ChaosNode} JVMs of a run, one per slot ({@code n1}, {@code n2}, ...): starts a slot's node, each time with
 * a new owner id ({@code <slot>-<incarnation>}) and the same member id, and answers who acts on what now, read only
 * from the events the nodes printed: a node acts on a resource from its ACQUIRED line until its LOST or RELEASED line
 * for that resource, and only while its process is alive.
 */
final class Cluster {

    private final Map<String, String> a;
    private final long ttl;
    private final long poll;
    private final Primitive primitive;
    private final List<String> resources;
    private final long hold;
    private final Path out;
    private final NodeProcess.Events events;
    private final RunRecord record;
    private final S3MockProcess s3;
    private final TcpProxy proxy;
    private final @Nullable FencingLog log;
    private final @Nullable FencedTable table;
    private final Map<String, NodeProcess> nodes = new LinkedHashMap<>();
    private final Map<String, Integer> incarnations = new HashMap<>();

    /** {@code log} or {@code table} is the run's sink, the other null. */
    Cluster(ChaosSettings settings, NodeProcess.Events events, RunRecord record, S3MockProcess s3, TcpProxy proxy,
            @Nullable FencingLog log, @Nullable FencedTable table) {
        this.a = settings.arguments();
        this.ttl = settings.ttl();
        this.poll = settings.poll();
        this.primitive = settings.primitive();
        this.resources = settings.resources();
        this.hold = settings.hold();
        this.out = settings.out();
        this.events = events;
        this.record = record;
        this.s3 = s3;
        this.proxy = proxy;
        this.log = log;
        this.table = table;
    }

    /**
     * Starts the node of {@code slot} (reaching S3 through the proxy if {@code proxied}) and waits, at most 60 s, for
     * its STARTED line; a node that does not start is a failure.
     */
    void startNode(String slot, boolean proxied) throws Exception {
        int incarnation = incarnations.merge(slot, 1, Integer::sum);
        String owner = slot + "-" + incarnation;
        String endpoint = "http://127.0.0.1:" + (proxied ? proxy.port() : s3.port());
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), ChaosNode.class.getName(),
                "endpoint=" + endpoint, "bucket=" + S3MockProcess.BUCKET, "key=chaos/leader", "owner=" + owner,
                "ttlMs=" + TimeUnit.NANOSECONDS.toMillis(ttl), "pollMs=" + TimeUnit.NANOSECONDS.toMillis(poll),
                "logPort=" + (log != null ? log.port() : 0), "workGapMs=" + a.getOrDefault("workGapMs", "50"), "maxRuntimeS=1800",
                "checkLeader=" + !slot.equals(a.getOrDefault("brokenSlot", "none")),
                "primitive=" + primitive.argument(), "resources=" + resources.size(), "memberId=" + slot,
                "holdMs=" + TimeUnit.NANOSECONDS.toMillis(hold)));
        if (table != null) {
            command.addAll(table.nodeArguments(owner, Boolean.parseBoolean(a.getOrDefault("fenced", "true"))));
        }
        NodeProcess node = NodeProcess.start(slot, owner, proxied, command, out.resolve(owner + ".log"), events);
        nodes.put(slot, node);
        Event started = events.await(e -> e.owner().equals(owner) && e.type().equals("STARTED"), TimeUnit.SECONDS.toNanos(60));
        if (started == null) {
            record.fail(owner + " did not start within 60 s; see " + out.resolve(owner + ".log"));
        }
    }

    /** The latest node of each slot, in the order the slots were first started. */
    Collection<NodeProcess> nodes() {
        return nodes.values();
    }

    /** The node that reaches S3 through the proxy. */
    NodeProcess proxied() {
        return nodes.values().stream().filter(n -> n.proxied).findFirst().orElseThrow();
    }

    /** Continues (if stopped) and kills every node still alive. */
    void killAll() throws IOException, InterruptedException {
        for (NodeProcess node : nodes.values()) {
            if (node.alive()) {
                node.cont();
                node.kill();
            }
        }
    }

    /**
     * What each living node acts on: the resources whose latest ACQUIRED line of that node is not followed by a LOST
     * or RELEASED line for the same resource, with the token (generation) of that ACQUIRED.
     */
    Map<NodeProcess, Map<String, Long>> holdings() {
        Map<String, Map<String, Event>> last = new HashMap<>();
        for (Event e : events.all()) {
            if (e.type().equals("ACQUIRED") || e.type().equals("LOST") || e.type().equals("RELEASED")) {
                last.computeIfAbsent(e.owner(), o -> new HashMap<>()).put(e.resource(), e);
            }
        }
        Map<NodeProcess, Map<String, Long>> holdings = new LinkedHashMap<>();
        for (NodeProcess node : nodes.values()) {
            Map<String, Long> held = new TreeMap<>();
            last.getOrDefault(node.owner, Map.of()).forEach((resource, e) -> {
                if (e.type().equals("ACQUIRED")) {
                    held.put(resource, e.generation());
                }
            });
            if (node.alive() && !held.isEmpty()) {
                holdings.put(node, held);
            }
        }
        return holdings;
    }

    /**
     * The living node that acts on something (the elector: whose latest ACQUIRED is not followed by a LOST), the one
     * with the highest token if several; null if none.
     */
    @Nullable NodeProcess currentLeader() {
        NodeProcess best = null;
        long bestGeneration = -1;
        for (Map.Entry<NodeProcess, Map<String, Long>> holding : holdings().entrySet()) {
            long generation = holding.getValue().values().stream().mapToLong(Long::longValue).max().orElse(-1);
            if (generation > bestGeneration) {
                best = holding.getKey();
                bestGeneration = generation;
            }
        }
        return best;
    }

    /** The resources {@code node} acts on now (empty if none). */
    Set<String> heldBy(NodeProcess node) {
        return holdings().getOrDefault(node, Map.of()).keySet();
    }

    /** Whether {@code node} acts now: the elector's current leader, or holding some lock or key. */
    boolean acts(NodeProcess node) {
        return primitive == Primitive.ELECTOR ? currentLeader() == node : !heldBy(node).isEmpty();
    }

    /**
     * The first ACQUIRED after {@code since} by another owner than {@code notOwner}, of one of {@code resources} (null:
     * any owner, any resource); null if none came within {@code timeout} nanoseconds.
     */
    @Nullable Event awaitLeader(@Nullable String notOwner, @Nullable Set<String> resources, long since, long timeout)
            throws InterruptedException {
        return events.await(e -> e.type().equals("ACQUIRED") && e.nanos() > since
                && (notOwner == null || !e.owner().equals(notOwner))
                && (resources == null || resources.contains(e.resource())), timeout);
    }
}
