package dev.hoplock.s3.server;

import com.robothy.s3.rest.LocalS3;
import com.robothy.s3.rest.bootstrap.LocalS3Mode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;

/**
 * local-s3 2.4 ({@code io.github.robothy:local-s3-rest}) in this JVM, in memory, on a free port of 127.0.0.1: an
 * S3-compatible server that ignores {@code If-None-Match} and {@code If-Match}, used only as the store the
 * conditional-write probe must refuse. Create buckets with a plain S3 client; {@link #close()} shuts it down.
 */
public final class LocalS3Server implements AutoCloseable {

    private final LocalS3 server;
    private final int port;

    private LocalS3Server(LocalS3 server, int port) {
        this.server = server;
        this.port = port;
    }

    public static LocalS3Server start() {
        int port = freePort();
        LocalS3 server = LocalS3.builder()
                .port(port)
                .mode(LocalS3Mode.IN_MEMORY)
                .nettyParentEventGroupThreadNum(1)
                .nettyChildEventGroupThreadNum(1)
                .s3ExecutorThreadNum(1)
                .build();
        server.start();
        return new LocalS3Server(server, port);
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    @Override
    public void close() {
        server.shutdown();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
