package dev.hoplock.azure.blob.emulator;

import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import dev.hoplock.azure.blob.TestTransport;
import org.jspecify.annotations.Nullable;

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
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Azurite (Microsoft's Azure Storage emulator, npm {@code azurite} 3.35.0, the newest that runs on Node.js 20), its
 * blob service alone, running as a separate Node.js process on 127.0.0.1 and a free port, in memory
 * ({@code --inMemoryPersistence}), without telemetry, accepting the API version of any SDK
 * ({@code --skipApiVersionCheck}). Installed by {@link NodePackage} on first use.
 *
 * <p>Azurite is an emulator, not Azure: one Node.js process serves every request in turn, and it shows neither
 * throttling (503 ServerBusy), nor geo-replication, nor Entra ID role checks. Its account is the well-known development
 * account {@value #ACCOUNT}, whose key is published by Microsoft and is no secret.
 *
 * <p>Guarantees: {@link #shared()} starts at most one emulator per test JVM and returns it once it answers HTTP. It is
 * stopped by its process handle when the test run ends (the JUnit extension, or a shutdown hook). Its output goes to
 * {@code target/azurite/azurite.log}.
 */
public final class Azurite {

    /** Azurite's development account. */
    public static final String ACCOUNT = "devstoreaccount1";
    /** The development account's key, published in Azurite's documentation (not a secret). */
    public static final String ACCOUNT_KEY =
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

    private static final Duration STARTUP_DEADLINE = Duration.ofSeconds(Long.getLong("hoplock.azurite.startupSeconds", 60));
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private static @Nullable Azurite shared;

    private final Process process;
    private final int port;
    private final Path logFile;
    private final long startMillis;

    private Azurite(Process process, int port, Path logFile, long startMillis) {
        this.process = process;
        this.port = port;
        this.logFile = logFile;
        this.startMillis = startMillis;
    }

    /** The one emulator of this test JVM, started (and installed) on first use. */
    public static synchronized Azurite shared() {
        if (shared == null) {
            shared = start();
            Azurite azurite = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(azurite::stop, "azurite-stop"));
        }
        return shared;
    }

    static synchronized void stopShared() {
        if (shared != null) {
            shared.stop();
        }
    }

    /** {@code http://127.0.0.1:<port>/devstoreaccount1}: the account's blob endpoint. */
    public String endpoint() {
        return "http://127.0.0.1:" + port + "/" + ACCOUNT;
    }

    /** The port Azurite listens on. */
    public int port() {
        return port;
    }

    /** A connection string for the development account. */
    public String connectionString() {
        return "DefaultEndpointsProtocol=http;AccountName=" + ACCOUNT + ";AccountKey=" + ACCOUNT_KEY
                + ";BlobEndpoint=" + endpoint() + ";";
    }

    /** A client of the development account, for setting up and inspecting containers beside the backend. */
    public BlobServiceClient serviceClient() {
        return new BlobServiceClientBuilder().connectionString(connectionString()).httpClient(TestTransport.jdk())
                .buildClient();
    }

    /** Creates a container with a new name starting with {@code name} and returns that name. */
    public String newContainer(String name) {
        String container = name + "-" + UUID.randomUUID().toString().substring(0, 8);
        serviceClient().createBlobContainer(container);
        return container;
    }

    /** How long the emulator took to answer after its process started. */
    public long startMillis() {
        return startMillis;
    }

    public Path logFile() {
        return logFile;
    }

    private static Azurite start() {
        NodePackage azurite = NodePackage.installed("azurite", Paths.get(System.getProperty("hoplock.azurite.npm",
                "src/test/npm/azurite")));
        Path dir = Paths.get(System.getProperty("hoplock.test.dir", "target")).toAbsolutePath().resolve("azurite");
        try {
            Files.createDirectories(dir);
            Path logFile = dir.resolve("azurite.log");
            int port = freePort();
            long began = System.nanoTime();
            // In memory, so nothing is written to disk; Azurite then keeps no files but its log (see above).
            Process process = new ProcessBuilder(List.of("node",
                    azurite.file("node_modules/azurite/dist/src/blob/main.js").toString(),
                    "--blobHost", "127.0.0.1", "--blobPort", Integer.toString(port),
                    "--inMemoryPersistence",
                    "--skipApiVersionCheck", "--disableTelemetry", "--silent"))
                    .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
            Azurite server = new Azurite(process, port, logFile, 0);
            try {
                server.awaitReady();
            } catch (RuntimeException e) {
                server.stop();
                throw e;
            }
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
            System.out.println("Azurite 3.35.0 answers on 127.0.0.1:" + port + " after " + took + " ms");
            return new Azurite(process, port, logFile, took);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Azurite", e);
        }
    }

    /** Polls until Azurite answers any HTTP status; bounded by a deadline. */
    private void awaitReady() {
        long deadline = System.nanoTime() + STARTUP_DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Azurite exited with code " + process.exitValue()
                        + " before it was ready; see " + logFile);
            }
            if (answers()) {
                return;
            }
            try {
                process.waitFor(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for Azurite", e);
            }
        }
        throw new IllegalStateException("Azurite did not answer within " + STARTUP_DEADLINE.toSeconds() + " s; see "
                + logFile);
    }

    private boolean answers() {
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create(endpoint() + "?comp=list").toURL()
                    .openConnection();
            connection.setConnectTimeout(500);
            connection.setReadTimeout(2000);
            try {
                return connection.getResponseCode() > 0;
            } finally {
                connection.disconnect();
            }
        } catch (IOException notYet) {
            return false;
        }
    }

    synchronized void stop() {
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
    }

    /** A free port on the loopback interface. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
