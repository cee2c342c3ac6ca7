package dev.hoplock.elasticsearch.node;

import org.opensearch.common.settings.Settings;
import org.opensearch.core.common.transport.TransportAddress;
import org.opensearch.env.Environment;
import org.opensearch.http.HttpServerTransport;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.painless.PainlessPlugin;
import org.opensearch.transport.Netty4Plugin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A real single-node OpenSearch 2.19.6 cluster inside this JVM, with its HTTP API on 127.0.0.1 and a free port: one
 * per test JVM (it takes 6 to 16 s to start), shared by every test class through {@link OpenSearchExtension}.
 *
 * <p>The node runs from Maven Central jars ({@code org.opensearch:opensearch}, the Netty 4 HTTP plugin, Painless and
 * {@code log4j-core}); its data lives in a fresh directory under {@code target/} and is deleted when the JVM ends.
 */
public final class OpenSearchNode {

    private static OpenSearchNode shared;

    private final Node node;
    private final URI endpoint;
    private final Duration startTime;
    private final Path home;

    private OpenSearchNode(Node node, URI endpoint, Duration startTime, Path home) {
        this.node = node;
        this.endpoint = endpoint;
        this.startTime = startTime;
        this.home = home;
    }

    /** The node of this JVM, started on first use. */
    public static synchronized OpenSearchNode shared() {
        if (shared == null) {
            shared = start();
            Runtime.getRuntime().addShutdownHook(new Thread(OpenSearchNode::stopShared, "opensearch-node-stop"));
        }
        return shared;
    }

    /** Stops the node of this JVM, if it runs. */
    public static synchronized void stopShared() {
        if (shared != null) {
            shared.close();
            shared = null;
        }
    }

    /** The HTTP endpoint, for example {@code http://127.0.0.1:41234}. */
    public URI endpoint() {
        return endpoint;
    }

    /** How long the node took from construction to an open HTTP port. */
    public Duration startTime() {
        return startTime;
    }

    private static OpenSearchNode start() {
        long started = System.nanoTime();
        Path home;
        try {
            Path target = Path.of(System.getProperty("hoplock.test.dir", "target"));
            Files.createDirectories(target);
            home = Files.createTempDirectory(target, "opensearch-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Settings settings = Settings.builder()
                .put("path.home", home.toString())
                .put("cluster.name", "hoplock-test")
                .put("node.name", "hoplock-test-node")
                .put("discovery.type", "single-node")
                .put("network.host", "127.0.0.1")
                .put("http.port", "0")
                .put("transport.port", "0")
                .put("cluster.routing.allocation.disk.threshold_enabled", false)
                .build();
        Environment environment = InternalSettingsPreparer.prepareEnvironment(settings, Map.of(), null,
                () -> "hoplock-test-node");
        Node node = new NodeWithNetty(environment);
        try {
            node.start();
        } catch (Exception e) {
            throw new IllegalStateException("the OpenSearch test node did not start; its files are in " + home, e);
        }
        TransportAddress address = node.injector().getInstance(HttpServerTransport.class).boundAddress()
                .publishAddress();
        URI endpoint = URI.create("http://127.0.0.1:" + address.getPort());
        Duration startTime = Duration.ofNanos(System.nanoTime() - started);
        System.out.printf("OpenSearch 2.19.6 test node at %s started in %d ms%n", endpoint, startTime.toMillis());
        return new OpenSearchNode(node, endpoint, startTime, home);
    }

    private void close() {
        try {
            node.close();
        } catch (IOException e) {
            System.err.println("closing the OpenSearch test node failed: " + e);
        }
        deleteQuietly(home);
    }

    private static void deleteQuietly(Path dir) {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // target/ is cleaned by the next mvn clean anyway
        }
    }

    /** {@link Node} with the Netty 4 HTTP transport and Painless, which a node from the jar alone does not load. */
    private static final class NodeWithNetty extends Node {
        NodeWithNetty(Environment environment) {
            super(environment, List.of(Netty4Plugin.class, PainlessPlugin.class), true);
        }
    }
}
