package dev.hoplock.elasticsearch.node;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;

/**
 * The {@link OpenSearchNode} as a process of its own, for {@code chaos/ownership-stress.sh store=opensearch}: a
 * separate JVM that a script can pause (SIGSTOP/SIGCONT) like a store that answers late, and stop (SIGTERM closes the
 * node and deletes its files). Once the node answers on HTTP, its endpoint ({@code http://127.0.0.1:<port>}) is
 * written to the file named by the first argument (written whole, then moved into place, so a reader never sees a
 * part of it). The node's files live under {@code -Dhoplock.test.dir} (default {@code target}).
 *
 * <p>Run it with {@code -Dlog4j.provider=org.apache.logging.log4j.core.impl.Log4jProvider} and at least
 * {@code -Xmx256m}, as surefire runs the node (see this module's pom).
 */
public final class OpenSearchNodeMain {

    private OpenSearchNodeMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            throw new IllegalArgumentException("expected one argument: the file to write the node's endpoint to");
        }
        Path endpointFile = Path.of(args[0]);
        OpenSearchNode node = OpenSearchNode.shared();
        Path written = endpointFile.resolveSibling(endpointFile.getFileName() + ".tmp");
        Files.writeString(written, node.endpoint() + "\n", StandardCharsets.UTF_8);
        Files.move(written, endpointFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        // OpenSearchNode.shared() closed the node in a shutdown hook; this thread only keeps the JVM alive.
        new CountDownLatch(1).await();
    }
}
