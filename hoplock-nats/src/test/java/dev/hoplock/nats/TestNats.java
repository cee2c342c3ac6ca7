package dev.hoplock.nats;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.nats.server.NatsServer;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.Nats;
import io.nats.client.Options;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.UUID;

/**
 * The module's single JetStream server, started once per test JVM from the binary on a free loopback port with its
 * store in {@code target/nats-servers/}, and stopped when the JVM exits; and helpers to make and remove buckets on it.
 * Each test class uses buckets of its own.
 */
final class TestNats {

    private static @Nullable NatsServer server;

    private TestNats() {
    }

    static synchronized NatsServer server() {
        if (server == null) {
            try {
                server = NatsServer.startSingle("single");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start nats-server (Debian package nats-server)", e);
            }
            NatsServer started = server;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        return server;
    }

    /** A bucket name not used before. */
    static String newBucket(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A backend over {@code bucket}, creating the bucket (random first revision) when it does not exist. */
    static NatsBackend backend(String bucket) throws BackendException {
        return NatsBackend.builder().servers(server().url()).bucket(bucket).createBucket(true)
                .requestTimeout(Duration.ofSeconds(5)).build();
    }

    /** A plain client connection to the test server. */
    static Connection connect() throws IOException, InterruptedException {
        return Nats.connect(new Options.Builder().server(server().url()).build());
    }

    /** Deletes the bucket's stream, if any. */
    static void deleteBucket(String bucket) throws IOException, InterruptedException {
        try (Connection connection = connect()) {
            connection.jetStreamManagement().deleteStream("KV_" + bucket);
        } catch (JetStreamApiException gone) {
            // not there
        }
    }
}
