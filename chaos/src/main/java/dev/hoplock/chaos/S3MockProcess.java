package dev.hoplock.chaos;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * S3Mock 5.2.0 as a separate process on 127.0.0.1, configured as {@code shared/notes/s3-test-server.md} prescribes
 * (one request thread, the second connector parked on a random port), with a store root that survives restarts
 * ({@code retain-files-on-exit=true}): a restart is an outage, not a loss of data. It can be killed (SIGKILL) or
 * stopped (SIGTERM) and started again on the same port and root. A start waits a bounded time for the server to
 * answer; on a loaded machine it can take longer (more than 90 s was seen at load average 40), and then
 * {@link #start(Duration, String)} throws {@link NotReady}, which names the wait and the load, so that the run can say what
 * happened instead of ending without a report.
 */
final class S3MockProcess {

    static final String BUCKET = "chaos";

    /** The server did not answer within the start patience: the machine, not hoplock, stopped the run. */
    static final class NotReady extends IOException {
        NotReady(String message) {
            super(message);
        }
    }

    private final Path jar;
    private final Path root;
    private final Path logFile;
    private final int port;
    private @Nullable Process process;

    S3MockProcess(Path jar, Path root, Path logFile) throws IOException {
        this.jar = jar;
        this.root = root;
        this.logFile = logFile;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            this.port = probe.getLocalPort();
        }
    }

    int port() {
        return port;
    }

    /**
     * Starts the server ({@code occasion}: "start", "restart after SIGKILL", for messages) and waits (at most
     * {@code patience}) until {@code GET /} answers 200; returns the time that took. Throws {@link NotReady} (the
     * process left running, for {@link #stop(boolean)}) if it did not answer in time, and a plain {@link IOException}
     * if it exited.
     */
    long start(Duration patience, String occasion) throws IOException, InterruptedException {
        long started = System.nanoTime();
        process = new ProcessBuilder(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m", "-jar", jar.toString(),
                "--server.address=127.0.0.1", "--server.port=" + port, "--server.ssl.enabled=false",
                "--server.tomcat.threads.max=1", "--http.port=0",
                "--com.adobe.testing.s3mock.store.root=" + root,
                "--com.adobe.testing.s3mock.store.initial-buckets=" + BUCKET,
                "--com.adobe.testing.s3mock.store.retain-files-on-exit=true"))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .start();
        long deadline = started + patience.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("S3Mock exited with " + process.exitValue() + "; see " + logFile);
            }
            if (answers()) {
                return System.nanoTime() - started;
            }
            process.waitFor(100, TimeUnit.MILLISECONDS);
        }
        throw new NotReady("S3Mock did not answer within " + patience.toSeconds() + " s of its " + occasion
                + " (load average " + loadAverage() + "); see " + logFile);
    }

    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private boolean answers() {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/").toURL().openConnection();
            c.setConnectTimeout(500);
            c.setReadTimeout(2000);
            try {
                return c.getResponseCode() == 200;
            } finally {
                c.disconnect();
            }
        } catch (IOException e) {
            return false;
        }
    }

    /** SIGKILL ({@code graceful == false}) or SIGTERM, then waits for the process to end. */
    void stop(boolean graceful) throws InterruptedException {
        if (process == null) {
            return;
        }
        if (graceful) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } else {
            process.destroyForcibly();
        }
        process.waitFor(20, TimeUnit.SECONDS);
    }
}
