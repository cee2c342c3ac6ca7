package dev.hoplock.redis.server;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * A Redis Cluster of three masters (with no replicas, or with some per master) on free loopback ports, made as the
 * Redis docs make one: {@code redis-server --cluster-enabled yes} per node, then {@code redis-cli --cluster create}.
 */
public final class ClusterSetup implements AutoCloseable {

    private final List<RedisServer> masters = new ArrayList<>();
    private final List<RedisServer> replicas = new ArrayList<>();

    private ClusterSetup() {
    }

    /** Three masters, no replicas, default settings. */
    public static ClusterSetup start() throws IOException, InterruptedException {
        return start(0);
    }

    /** Three masters with {@code replicasPerMaster} replicas each, every node started with {@code args}. */
    public static ClusterSetup start(int replicasPerMaster, String... args) throws IOException, InterruptedException {
        ClusterSetup cluster = new ClusterSetup();
        List<RedisServer> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 3 * (1 + replicasPerMaster); i++) {
                int port = freePortWithBus();
                List<String> settings = new ArrayList<>(List.of("--cluster-enabled", "yes", "--cluster-config-file",
                        "nodes-" + port + ".conf", "--cluster-node-timeout", "2000"));
                settings.addAll(List.of(args));
                nodes.add(RedisServer.startOnPort(port, Files.createTempDirectory(
                        java.nio.file.Path.of(System.getProperty("hoplock.test.dir", "target")), "cluster-"),
                        settings));
            }
            // redis-cli makes the first three masters, the others their replicas.
            cluster.masters.addAll(nodes.subList(0, 3));
            cluster.replicas.addAll(nodes.subList(3, nodes.size()));
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            nodes.forEach(m -> create.add("127.0.0.1:" + m.port()));
            create.addAll(List.of("--cluster-replicas", Integer.toString(replicasPerMaster), "--cluster-yes"));
            Process cli = new ProcessBuilder(create).redirectErrorStream(true).start();
            String output = new String(cli.getInputStream().readAllBytes());
            if (!cli.waitFor(60, TimeUnit.SECONDS) || cli.exitValue() != 0) {
                throw new IOException("redis-cli --cluster create failed: " + output);
            }
            await("cluster_state:ok on every node").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                    .until(() -> nodes.stream().allMatch(m -> {
                        try {
                            return String.valueOf(m.command("CLUSTER", "INFO")).contains("cluster_state:ok");
                        } catch (IOException e) {
                            return false;
                        }
                    }));
            await("every master with its replicas online").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                    .until(() -> cluster.masters.stream().allMatch(m -> {
                        try {
                            String info = String.valueOf(m.command("INFO", "replication"));
                            return info.contains("role:master") && info.contains("connected_slaves:"
                                    + replicasPerMaster) && (replicasPerMaster == 0 || info.contains("state=online"));
                        } catch (IOException e) {
                            return false;
                        }
                    }));
        } catch (IOException | RuntimeException | InterruptedException e) {
            nodes.forEach(RedisServer::close);
            throw e;
        }
        return cluster;
    }

    /** A free port whose cluster bus port (+10000) is free too. */
    private static int freePortWithBus() throws IOException {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(20_000, 55_000);
            try (ServerSocket data = new ServerSocket(port); ServerSocket bus = new ServerSocket(port + 10_000)) {
                return port;
            } catch (IOException taken) {
                // try another
            }
        }
        throw new IOException("no free port pair for a cluster node");
    }

    public List<RedisServer> masters() {
        return masters;
    }

    /** The replicas, empty without them. */
    public List<RedisServer> replicas() {
        return replicas;
    }

    /** The seed nodes, {@code redis://127.0.0.1:port}. */
    public List<String> seeds() {
        return masters.stream().map(m -> "redis://127.0.0.1:" + m.port()).toList();
    }

    @Override
    public void close() {
        masters.forEach(RedisServer::close);
        replicas.forEach(RedisServer::close);
    }
}
