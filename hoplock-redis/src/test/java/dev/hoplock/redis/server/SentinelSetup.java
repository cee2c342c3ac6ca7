package dev.hoplock.redis.server;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;

/**
 * A primary, one replica and three Sentinels (quorum 2) on free loopback ports, started by a test: the deployment the
 * Redis docs recommend for failover. The data nodes get {@code args} (for example {@code appendonly yes}).
 */
public final class SentinelSetup implements AutoCloseable {

    public static final String MASTER = "mymaster";

    private final List<String> args;
    private final Duration downAfter;
    private final List<RedisServer> dataNodes = new ArrayList<>();
    private final List<RedisServer> sentinels = new ArrayList<>();

    private SentinelSetup(List<String> args, Duration downAfter) {
        this.args = args;
        this.downAfter = downAfter;
    }

    /** Starts the five processes and waits until every Sentinel knows the replica and the other Sentinels. */
    public static SentinelSetup start(Duration downAfter, String... args) throws IOException {
        SentinelSetup setup = new SentinelSetup(List.of(args), downAfter);
        try {
            RedisServer primary = RedisServer.start(args);
            setup.dataNodes.add(primary);
            RedisServer replica = RedisServer.start(args);
            setup.dataNodes.add(replica);
            replica.replicate(primary);
            for (int i = 0; i < 3; i++) {
                setup.sentinels.add(RedisServer.sentinel(MASTER, primary.port(), downAfter));
            }
            setup.awaitReady();
        } catch (IOException | RuntimeException e) {
            setup.close();
            throw e;
        }
        return setup;
    }

    /** Waits until every Sentinel sees a primary, a replica in sync and the two other Sentinels. */
    public void awaitReady() {
        await("the Sentinels know the primary, its replica and each other").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100)).ignoreExceptions().until(() -> {
                    for (RedisServer sentinel : sentinels) {
                        Map<String, String> master = fields(sentinel.command("SENTINEL", "MASTER", MASTER));
                        if (!master.get("flags").equals("master") || Integer.parseInt(master.get("num-slaves")) < 1
                                || Integer.parseInt(master.get("num-other-sentinels")) < 2) {
                            return false;
                        }
                        List<?> replicas = (List<?>) sentinel.command("SENTINEL", "REPLICAS", MASTER);
                        boolean good = replicas.stream().map(SentinelSetup::fields)
                                .anyMatch(r -> r.get("flags").equals("slave")
                                        && "ok".equals(r.get("master-link-status")));
                        if (!good) {
                            return false;
                        }
                    }
                    return true;
                });
    }

    /** {@code redis-sentinel://127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3/0#mymaster}. */
    public String uri() {
        return "redis-sentinel://" + sentinels.stream().map(s -> "127.0.0.1:" + s.port())
                .collect(Collectors.joining(",")) + "/0#" + MASTER;
    }

    /** The port of the primary as the first Sentinel that answers names it. */
    public int primaryPort() throws IOException {
        IOException last = null;
        for (RedisServer sentinel : sentinels) {
            try {
                List<?> address = (List<?>) sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER);
                return Integer.parseInt((String) address.get(1));
            } catch (IOException e) {
                last = e;
            }
        }
        throw last;
    }

    /** The data node on {@code port}. */
    public RedisServer node(int port) {
        return dataNodes.stream().filter(n -> n.port() == port).findFirst().orElseThrow();
    }

    /** The data node that is the primary now. */
    public RedisServer primary() throws IOException {
        return node(primaryPort());
    }

    /** The data node that is not the primary now. */
    public RedisServer replica() throws IOException {
        int primary = primaryPort();
        return dataNodes.stream().filter(n -> n.port() != primary).findFirst().orElseThrow();
    }

    /** {@code SENTINEL FAILOVER}: promotes the replica without asking the other Sentinels. */
    public void failover() throws IOException {
        sentinels.get(0).command("SENTINEL", "FAILOVER", MASTER);
    }

    /** Waits until the Sentinels name another primary than {@code oldPort}; returns the new port. */
    public int awaitNewPrimary(int oldPort, Duration atMost) {
        return await("a new primary instead of " + oldPort).atMost(atMost).pollInterval(Duration.ofMillis(20))
                .ignoreExceptions().until(this::primaryPort, port -> port != oldPort);
    }

    /** Starts a data node again on the port of one that was killed, with the same arguments and files. */
    public RedisServer restart(RedisServer killed) throws IOException {
        RedisServer again = RedisServer.startOnPort(killed.port(), killed.dir(), args);
        dataNodes.set(dataNodes.indexOf(killed), again);
        return again;
    }

    public Duration downAfter() {
        return downAfter;
    }

    public List<RedisServer> sentinels() {
        return sentinels;
    }

    @Override
    public void close() {
        sentinels.forEach(RedisServer::close);
        dataNodes.forEach(RedisServer::close);
    }

    /** A flat RESP list of names and values as a map. */
    static Map<String, String> fields(Object answer) {
        List<?> list = (List<?>) answer;
        Map<String, String> fields = new HashMap<>();
        for (int i = 0; i + 1 < list.size(); i += 2) {
            fields.put(String.valueOf(list.get(i)), String.valueOf(list.get(i + 1)));
        }
        return fields;
    }
}
