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
 * A Redis Cluster of three masters (no replicas) on free loopback ports, made as the Redis docs make one:
 * {@code redis-server --cluster-enabled yes} three times, then {@code redis-cli --cluster create}.
 */
public final class ClusterSetup implements AutoCloseable {

    private final List<RedisServer> masters = new ArrayList<>();

    private ClusterSetup() {
    }

    public static ClusterSetup start() throws IOException, InterruptedException {
        ClusterSetup cluster = new ClusterSetup();
        try {
            for (int i = 0; i < 3; i++) {
                int port = freePortWithBus();
                cluster.masters.add(RedisServer.startOnPort(port, Files.createTempDirectory(
                        java.nio.file.Path.of(System.getProperty("hoplock.test.dir", "target")), "cluster-"),
                        List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes-" + port + ".conf",
                                "--cluster-node-timeout", "2000")));
            }
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            cluster.masters.forEach(m -> create.add("127.0.0.1:" + m.port()));
            create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
            Process cli = new ProcessBuilder(create).redirectErrorStream(true).start();
            String output = new String(cli.getInputStream().readAllBytes());
            if (!cli.waitFor(60, TimeUnit.SECONDS) || cli.exitValue() != 0) {
                throw new IOException("redis-cli --cluster create failed: " + output);
            }
            await("cluster_state:ok on every master").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                    .until(() -> cluster.masters.stream().allMatch(m -> {
                        try {
                            return String.valueOf(m.command("CLUSTER", "INFO")).contains("cluster_state:ok");
                        } catch (IOException e) {
                            return false;
                        }
                    }));
        } catch (IOException | RuntimeException | InterruptedException e) {
            cluster.close();
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

    /** The seed nodes, {@code redis://127.0.0.1:port}. */
    public List<String> seeds() {
        return masters.stream().map(m -> "redis://127.0.0.1:" + m.port()).toList();
    }

    @Override
    public void close() {
        masters.forEach(RedisServer::close);
    }
}
