package dev.hoplock.nats.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Three {@link NatsServer}s with JetStream in one cluster on loopback ports (client and route ports found free), with
 * their stores in directories of their own, so that a bucket can have three replicas. A node can be killed (SIGKILL),
 * stopped (SIGTERM), paused (SIGSTOP, as a node cut off from the others and from its clients) and started again on
 * the same ports and store.
 */
public final class NatsCluster implements AutoCloseable {

    private final List<NatsServer> nodes;

    private NatsCluster(List<NatsServer> nodes) {
        this.nodes = nodes;
    }

    /**
     * Starts three nodes; {@code jetStreamExtra} goes inside each node's {@code jetstream {}} block's neighbourhood
     * (for example {@code "jetstream { sync_interval: always }"} on nats-server 2.10 and later is not supported by
     * the 2.9 configuration parser, so it is left to the caller).
     */
    public static NatsCluster start(String name, String extraConfig) throws IOException {
        return start(name, extraConfig, NatsBinary.configured());
    }

    /** Starts three nodes of {@code binary}, as {@link #start(String, String)}. */
    public static NatsCluster start(String name, String extraConfig, NatsBinary binary) throws IOException {
        int size = 3;
        List<Integer> clientPorts = new ArrayList<>();
        List<Integer> routePorts = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            clientPorts.add(NatsServer.freePort());
            routePorts.add(NatsServer.freePort());
        }
        String routes = routePorts.stream().map(p -> "nats-route://127.0.0.1:" + p)
                .collect(Collectors.joining(", "));
        List<NatsServer> nodes = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            String cluster = "cluster {\n  name: " + name + "\n  listen: 127.0.0.1:" + routePorts.get(i)
                    + "\n  routes: [" + routes + "]\n}\n" + extraConfig;
            nodes.add(NatsServer.create(name + "-n" + (i + 1), true, cluster, clientPorts.get(i), binary));
        }
        for (NatsServer node : nodes) {
            node.startNoWait();
        }
        for (NatsServer node : nodes) {
            node.awaitListening();
        }
        return new NatsCluster(nodes);
    }

    public List<NatsServer> nodes() {
        return nodes;
    }

    /** The node whose server name is {@code name}. */
    public NatsServer node(String name) {
        return nodes.stream().filter(n -> n.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node " + name + " in " + names()));
    }

    public List<String> names() {
        return nodes.stream().map(NatsServer::name).toList();
    }

    /** Every node's URL, starting with node {@code first} (for a client that should connect there). */
    public String[] urlsStartingAt(int first) {
        String[] urls = new String[nodes.size()];
        for (int i = 0; i < nodes.size(); i++) {
            urls[i] = nodes.get((first + i) % nodes.size()).url();
        }
        return urls;
    }

    /** The logs of every node, for assertion messages. */
    public Map<String, String> logs() {
        return nodes.stream().collect(Collectors.toMap(NatsServer::name, NatsServer::log));
    }

    @Override
    public void close() throws InterruptedException {
        for (NatsServer node : nodes) {
            node.close();
        }
    }
}
