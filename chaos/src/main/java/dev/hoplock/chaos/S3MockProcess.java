package dev.hoplock.chaos;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * S3Mock 5.2.0 as a separate process on 127.0.0.1, configured as {@code shared/notes/s3-test-server.md} prescribes
 * (one request thread, the second connector parked on a random port), with a store root that survives restarts
 * ({@code retain-files-on-exit=true}): a restart is an outage, not a loss of data. It can be killed (SIGKILL) or
 * stopped (SIGTERM) and started again on the same port and root.
 */
final class S3MockProcess {

    static final String BUCKET = "chaos";

    private final Path jar;
    private final Path root;
    private final Path logFile;
    private final int port;
    private Process process;

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

    /** Starts the server and waits (at most 90 s) until {@code GET /} answers 200; returns the time that took. */
    long start() throws IOException, InterruptedException {
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
        long deadline = started + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("S3Mock exited with " + process.exitValue() + "; see " + logFile);
            }
            if (answers()) {
                return System.nanoTime() - started;
            }
            process.waitFor(100, TimeUnit.MILLISECONDS);
        }
        throw new IOException("S3Mock did not answer within 90 s; see " + logFile);
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
