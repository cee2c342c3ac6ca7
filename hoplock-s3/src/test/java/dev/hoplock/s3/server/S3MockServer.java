package dev.hoplock.s3.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Adobe S3Mock 5.2.0 running as a separate process on 127.0.0.1, as {@code shared/notes/s3-test-server.md}
 * prescribes: one Tomcat request thread (so its precondition check and write are atomic), the second connector
 * parked on a random port and never used, a temporary store root and one initial bucket.
 *
 * <p>Not atomic even so: a GET's ETag and length are read on the request thread, but its body is streamed later on
 * Spring MVC's async executor, so a PUT served in between gives the reader version n's ETag with the first len(n)
 * bytes of version n+1 (issue 19: 1 GET in about 100 on an idle machine). Conditional writes on that handle are still
 * refused, so leases stay safe; content acted on without a write must be self-delimiting and checked, as the
 * ownership registry's {@code end <crc32c>} line is ({@code RegistrySeal}).
 *
 * <p>Guarantees: {@link #shared()} starts at most one server per test JVM and returns it only once it answers
 * {@code GET /} with 200. The server is stopped by its process handle ({@code destroy()}, then
 * {@code destroyForcibly()} after a grace period) when the test run ends: by the JUnit extension at the end of the
 * run, or by a JVM shutdown hook if the run is cut short. Its output goes to {@code target/s3mock/s3mock.log}.
 */
public final class S3MockServer {

    /** The bucket that exists from the start. */
    public static final String BUCKET = "hoplock-test";

    /** 60 s by default; {@code -Dhoplock.s3mock.startupSeconds} gives a loaded machine longer. */
    private static final Duration STARTUP_DEADLINE = Duration.ofSeconds(Long.getLong("hoplock.s3mock.startupSeconds", 60));
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private static S3MockServer shared;

    private final Process process;
    private final int port;
    private final Path storeRoot;
    private final Path logFile;

    private S3MockServer(Process process, int port, Path storeRoot, Path logFile) {
        this.process = process;
        this.port = port;
        this.storeRoot = storeRoot;
        this.logFile = logFile;
    }

    /** The one server of this test JVM, started on first use. */
    public static synchronized S3MockServer shared() {
        if (shared == null) {
            shared = start();
            S3MockServer server = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "s3mock-stop"));
        }
        return shared;
    }

    /** Stops the shared server if one was started (idempotent). */
    static synchronized void stopShared() {
        if (shared != null) {
            shared.stop();
        }
    }

    /** {@code http://127.0.0.1:<port>}: the main connector, the only one with one request thread. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    public String bucket() {
        return BUCKET;
    }

    /** Where the server's stdout and stderr go. */
    public Path logFile() {
        return logFile;
    }

    /** True while the server process runs. */
    public boolean isAlive() {
        return process.isAlive();
    }

    private static S3MockServer start() {
        Path jar = Paths.get(System.getProperty("hoplock.s3mock.jar", "target/s3mock/s3mock-5.2.0-exec.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("S3Mock jar not found at " + jar.toAbsolutePath()
                    + "; the Maven build copies it there (run the tests with mvn)");
        }
        Path dir = TestDirs.target().resolve("s3mock");
        try {
            Files.createDirectories(dir);
            Path storeRoot = Files.createTempDirectory(dir, "store-");
            Path logFile = dir.resolve("s3mock.log");
            int port = freePort();
            List<String> command = new ArrayList<>(List.of(javaExecutable(),
                    "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m",
                    "-jar", jar.toAbsolutePath().toString(),
                    "--server.address=127.0.0.1",
                    "--server.port=" + port,
                    "--server.ssl.enabled=false",
                    "--server.tomcat.threads.max=1",
                    "--http.port=0",
                    "--com.adobe.testing.s3mock.store.root=" + storeRoot.toAbsolutePath(),
                    "--com.adobe.testing.s3mock.store.initial-buckets=" + BUCKET,
                    "--com.adobe.testing.s3mock.store.retain-files-on-exit=false"));
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(logFile.toFile())
                    .start();
            S3MockServer server = new S3MockServer(process, port, storeRoot, logFile);
            try {
                server.awaitReady();
            } catch (RuntimeException e) {
                server.stop();
                throw e;
            }
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start S3Mock", e);
        }
    }

    /** Polls {@code GET /} until it answers 200; the one polling loop of the harness, bounded by a deadline. */
    private void awaitReady() {
        long deadline = System.nanoTime() + STARTUP_DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("S3Mock exited with code " + process.exitValue()
                        + " before it was ready; see " + logFile.toAbsolutePath());
            }
            if (answersOk()) {
                return;
            }
            try {
                process.waitFor(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for S3Mock", e);
            }
        }
        throw new IllegalStateException("S3Mock did not answer GET / within " + STARTUP_DEADLINE.toSeconds()
                + " s; see " + logFile.toAbsolutePath());
    }

    private boolean answersOk() {
        try {
            HttpURLConnection connection = (HttpURLConnection) endpoint().resolve("/").toURL().openConnection();
            connection.setConnectTimeout(500);
            connection.setReadTimeout(2000);
            try {
                return connection.getResponseCode() == 200;
            } finally {
                connection.disconnect();
            }
        } catch (IOException notYet) {
            return false;
        }
    }

    private synchronized void stop() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        deleteQuietly(storeRoot);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    static String javaExecutable() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void deleteQuietly(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // A leftover temp directory under target/ is harmless.
        }
    }
}
