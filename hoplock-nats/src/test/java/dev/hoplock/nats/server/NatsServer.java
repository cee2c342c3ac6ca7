package dev.hoplock.nats.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One {@code nats-server} process with JetStream that a test starts from a {@link NatsBinary} (by default the binary
 * on the PATH, or the system property {@code hoplock.nats.server}), on a free loopback port, with its store and config in a directory of its own.
 * Never the machine's shared server on :4222.
 *
 * <p>The configuration is a file written before each start ({@link #config()} plus the port, store dir and any extra
 * lines; the binary's {@link NatsBinary#jetStreamOptions()} go into the {@code jetstream} block, such as
 * {@code sync_interval: always} on nats-server 2.10 and later), so that a restart keeps the store and a test can start a server with users and permissions, without
 * JetStream, or as a node of a cluster ({@link NatsCluster}). {@link #kill()} is SIGKILL, {@link #stop()} SIGTERM,
 * {@link #pause()} / {@link #resume()} SIGSTOP / SIGCONT.
 */
public final class NatsServer implements AutoCloseable {

    private static final Duration START_PATIENCE = Duration.ofSeconds(20);

    private final String name;
    private final Path dir;
    private final int port;
    private final String extraConfig;
    private final boolean jetStream;
    private final NatsBinary binary;
    private Process process;

    private NatsServer(String name, Path dir, int port, boolean jetStream, String extraConfig, NatsBinary binary) {
        this.binary = binary;
        this.name = name;
        this.dir = dir;
        this.port = port;
        this.jetStream = jetStream;
        this.extraConfig = extraConfig;
    }

    /** A single server with JetStream and no authentication, started. */
    public static NatsServer startSingle(String name) throws IOException {
        return start(name, true, "");
    }

    /**
     * A server started with {@code extraConfig} appended to its configuration (users, accounts, cluster blocks,
     * {@code jetstream} options); {@code jetStream} false starts it without JetStream.
     */
    public static NatsServer start(String name, boolean jetStream, String extraConfig) throws IOException {
        NatsServer server = create(name, jetStream, extraConfig, freePort());
        server.start();
        return server;
    }

    static NatsServer create(String name, boolean jetStream, String extraConfig, int port) throws IOException {
        return create(name, jetStream, extraConfig, port, NatsBinary.configured());
    }

    static NatsServer create(String name, boolean jetStream, String extraConfig, int port, NatsBinary binary)
            throws IOException {
        Path base = Path.of(System.getProperty("hoplock.test.dir", "target"), "nats-servers");
        Files.createDirectories(base);
        Path dir = Files.createTempDirectory(base, name + "-");
        NatsServer server = new NatsServer(name, dir, port, jetStream, extraConfig, binary);
        // A test JVM that ends without closing its servers (a failed @BeforeAll, an abort) leaves none behind.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "stop-" + name));
        return server;
    }

    /** Starts the process (again, after {@link #kill()} or {@link #stop()}, on the same port and store). */
    public synchronized void start() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is running");
        }
        Path config = dir.resolve("nats.conf");
        Files.writeString(config, config(), StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(binary.path(), "-c", config.toString()));
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("nats.log").toFile())).start();
        awaitListening();
    }

    /** Starts the process again without waiting for its client port (a cluster node waits for its peers). */
    public void startNoWaitForTests() throws IOException {
        startNoWait();
    }

    /** Starts the process without waiting for its client port (a cluster node waits for its peers). */
    synchronized void startNoWait() throws IOException {
        Path config = dir.resolve("nats.conf");
        Files.writeString(config, config(), StandardCharsets.UTF_8);
        process = new ProcessBuilder(List.of(binary.path(), "-c", config.toString())).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("nats.log").toFile())).start();
    }

    /** The configuration file's text. */
    public String config() {
        StringBuilder text = new StringBuilder();
        text.append("server_name: ").append(name).append('\n');
        text.append("listen: 127.0.0.1:").append(port).append('\n');
        if (jetStream) {
            text.append("jetstream {\n  store_dir: \"").append(dir.resolve("store")).append("\"\n")
                    .append("  max_memory_store: 64MB\n  max_file_store: 256MB\n")
                    .append(binary.jetStreamOptions()).append("\n}\n");
        }
        text.append(extraConfig).append('\n');
        return text.toString();
    }

    /** {@code nats://127.0.0.1:<port>}. */
    public String url() {
        return "nats://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public String name() {
        return name;
    }

    public Path dir() {
        return dir;
    }

    /** The process id, for signals. */
    public synchronized long pid() {
        return process.pid();
    }

    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** SIGKILL, then waits for the process to be gone. */
    public synchronized void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** SIGTERM (a graceful shutdown), then waits for the process to be gone. */
    public synchronized void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** SIGSTOP: the process keeps its sockets but answers nothing, as a node cut off by a partition. */
    public synchronized void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public synchronized void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /** The server's log so far (for assertion messages). */
    public String log() {
        try {
            return Files.readString(dir.resolve("nats.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            // A paused process must be continued to take SIGKILL promptly on every kernel.
            try {
                signal("CONT");
            } catch (IOException ignored) {
                // gone already
            }
        }
        kill();
    }

    void awaitListening() throws IOException {
        long end = System.nanoTime() + START_PATIENCE.toNanos();
        while (System.nanoTime() < end) {
            if (!process.isAlive()) {
                throw new IOException(name + " exited with " + process.exitValue() + ":\n" + log());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                try {
                    process.waitFor(20, TimeUnit.MILLISECONDS); // returns at once if it exits
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
            }
        }
        throw new IOException(name + " did not listen on " + port + " within " + START_PATIENCE + ":\n" + log());
    }

    /** The configured binary's version, as {@code nats-server --version} prints it, without the v ({@code 2.9.10}). */
    public static String version() throws IOException, InterruptedException {
        return NatsBinary.configured().version();
    }

    /** True when the configured binary is at least {@code major.minor.patch}. */
    public static boolean atLeast(int major, int minor, int patch) throws IOException, InterruptedException {
        return NatsBinary.configured().atLeast(major, minor, patch);
    }

    /** A loopback port that was free a moment ago. */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
