package dev.hoplock.redis.server;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * A {@code redis-server} (or, with {@link #sentinel}, a {@code redis-server --sentinel}) started by a test from the
 * machine's binary (Debian's {@code redis-server} package) on a free loopback port, with its files in a directory of
 * its own under {@code target/redis}. By default it keeps nothing on disk ({@code save ""}, {@code appendonly no}),
 * as the machine's shared server does; the arguments of {@link #start(String...)} override that.
 *
 * <p>{@link #kill()} is kill -9, {@link #pause()} / {@link #resume()} are SIGSTOP / SIGCONT; {@link #close()} kills
 * it. Never the shared server on 6379.
 */
public final class RedisServer implements AutoCloseable {

    private static final Duration START = Duration.ofSeconds(20);
    /** Every server still running, killed when the test JVM exits, whatever a test forgot. */
    private static final java.util.Set<Process> LIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly),
                "redis-servers-stop"));
    }

    private final Process process;
    private final int port;
    private final Path dir;
    private final String password;

    private RedisServer(Process process, int port, Path dir, String password) {
        this.process = process;
        this.port = port;
        this.dir = dir;
        this.password = password;
    }

    /** A server with {@code args} (for example {@code "--appendonly", "yes"}) after the defaults. */
    public static RedisServer start(String... args) throws IOException {
        return startWith(null, List.of(args));
    }

    /** A server that requires {@code password} (requirepass), with {@code args}. */
    public static RedisServer startWithPassword(String password, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of("--requirepass", password));
        all.addAll(List.of(args));
        return startWith(password, all);
    }

    /** A server on {@code port} (after another was killed there), with the defaults. */
    public static RedisServer startOnPort(int port) throws IOException {
        return startOnPort(port, dir("server-" + port), List.of());
    }

    /** A server on {@code port} with its files in {@code dir} (those of one killed there), and {@code args}. */
    public static RedisServer startOnPort(int port, Path dir, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of(binary(), "--port", Integer.toString(port), "--bind",
                "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--logfile",
                dir.resolve("redis.log").toString(), "--daemonize", "no", "--protected-mode", "no"));
        command.addAll(args);
        RedisServer server = launch(command, port, dir, null);
        if (server == null) {
            throw new IOException("redis-server did not start on port " + port + "; see " + dir.resolve("redis.log"));
        }
        return server;
    }

    private static RedisServer startWith(String password, List<String> args) throws IOException {
        for (int attempt = 0; ; attempt++) {
            int port = freePort();
            Path dir = dir("server-" + port);
            List<String> command = new ArrayList<>(List.of(binary(), "--port", Integer.toString(port), "--bind",
                    "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--logfile",
                    dir.resolve("redis.log").toString(), "--daemonize", "no", "--protected-mode", "no"));
            command.addAll(args);
            RedisServer server = launch(command, port, dir, password);
            if (server != null) {
                return server;
            }
            if (attempt >= 3) {
                throw new IOException("redis-server did not start; see " + dir.resolve("redis.log"));
            }
        }
    }

    /**
     * A Sentinel on a free port that monitors {@code primaryPort} as {@code master} with quorum 2, and declares it
     * down after {@code downAfter}.
     */
    public static RedisServer sentinel(String master, int primaryPort, Duration downAfter) throws IOException {
        for (int attempt = 0; ; attempt++) {
            int port = freePort();
            Path dir = dir("sentinel-" + port);
            Path conf = dir.resolve("sentinel.conf");
            Files.writeString(conf, String.join("\n",
                    "port " + port, "bind 127.0.0.1", "daemonize no", "protected-mode no",
                    "dir " + dir, "logfile " + dir.resolve("sentinel.log"),
                    "sentinel monitor " + master + " 127.0.0.1 " + primaryPort + " 2",
                    "sentinel down-after-milliseconds " + master + " " + downAfter.toMillis(),
                    "sentinel failover-timeout " + master + " 10000",
                    "sentinel parallel-syncs " + master + " 1", ""));
            RedisServer sentinel = launch(List.of(binary(), conf.toString(), "--sentinel"), port, dir, null);
            if (sentinel != null) {
                return sentinel;
            }
            if (attempt >= 3) {
                throw new IOException("redis-server --sentinel did not start; see " + dir.resolve("sentinel.log"));
            }
        }
    }

    private static RedisServer launch(List<String> command, int port, Path dir, String password) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("stdout.log").toFile()).start();
        LIVE.add(process);
        RedisServer server = new RedisServer(process, port, dir, password);
        try {
            await("redis on port " + port + " answers PING").atMost(START).pollInterval(Duration.ofMillis(20))
                    .until(() -> !process.isAlive() || server.answersPing());
        } catch (RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
        return process.isAlive() ? server : null;
    }

    private boolean answersPing() {
        try {
            return "PONG".equals(RawRedis.commandAs(port, password, 0, "PING"));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The Debian binary, or a clear failure naming the package. */
    static String binary() {
        for (String candidate : List.of("/usr/bin/redis-server", "/usr/local/bin/redis-server")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        throw new IllegalStateException("redis-server is not installed: the Redis tests start their own servers from"
                + " it; install Debian's package (apt-get install redis-server)");
    }

    private static Path dir(String name) throws IOException {
        Path dir = Path.of(System.getProperty("hoplock.test.dir", "target"), "redis",
                name + "-" + UUID.randomUUID().toString().substring(0, 8)).toAbsolutePath();
        Files.createDirectories(dir);
        return dir;
    }

    /** A port that was free a moment ago (the server's start fails, and is retried, if it was taken meanwhile). */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }

    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:<port>/<database>}, without credentials. */
    public String uri(int database) {
        return "redis://127.0.0.1:" + port + "/" + database;
    }

    public Path dir() {
        return dir;
    }

    public long pid() {
        return process.pid();
    }

    /** Sends a command (after AUTH with the server's password, if it has one). */
    public Object command(String... args) throws IOException {
        return RawRedis.commandAs(port, password, 0, args);
    }

    /** Sends a command to {@code database}. */
    public Object commandIn(int database, String... args) throws IOException {
        return RawRedis.commandAs(port, password, database, args);
    }

    /** Makes this server a replica of {@code primary} and waits until the link is up. */
    public void replicate(RedisServer primary) throws IOException {
        command("REPLICAOF", "127.0.0.1", Integer.toString(primary.port()));
        await("replica " + port + " in sync with " + primary.port()).atMost(START)
                .until(() -> String.valueOf(command("INFO", "replication")).contains("master_link_status:up"));
    }

    /** kill -9. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGSTOP: the process keeps its sockets but answers nothing. */
    public void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT. */
    public void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                resume();
            } catch (IOException | InterruptedException | RuntimeException ignored) {
                // kill -9 below works on a stopped process too
            }
        }
        kill();
    }
}
