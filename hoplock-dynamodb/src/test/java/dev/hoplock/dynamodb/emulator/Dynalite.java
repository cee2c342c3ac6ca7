package dev.hoplock.dynamodb.emulator;

import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

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

import static org.awaitility.Awaitility.await;

/**
 * dynalite (npm {@code dynalite} 4.0.0, an open-source implementation of the DynamoDB API on LevelDB) running as a
 * separate Node.js process on 127.0.0.1 and a free port, in memory (no {@code --path}), with tables ACTIVE at once
 * ({@code --createTableMs 0}). Installed by {@link NodePackage} on first use.
 *
 * <p>dynalite is an emulator, not DynamoDB: it does not check request signatures (any credentials pass), never
 * throttles, has no global tables, no IAM and no TTL deletion, and does not return the item with a failed condition
 * ({@code ReturnValuesOnConditionCheckFailure}); it serialises the writes of one item with a lock, as DynamoDB does.
 * And its process ends when a client drops a connection in the middle of a request (its {@code index.js} rethrows the
 * request's "aborted" error): a test that cuts requests short answers them in a proxy instead of forwarding them, and
 * every use of the emulator checks first that it still runs ({@link #requireAlive()}).
 *
 * <p>Guarantees: {@link #shared()} starts at most one emulator per test JVM and returns it once it answers HTTP. It is
 * stopped by its process handle when the test run ends. Its output goes to {@code target/dynalite/dynalite.log}.
 */
public final class Dynalite {

    /** Any credentials pass; these are what the tests send. */
    public static final String ACCESS_KEY_ID = "hoplock-test";
    public static final String SECRET_KEY = "hoplock-test-secret";

    private static final Duration STARTUP_DEADLINE = Duration.ofSeconds(Long.getLong("hoplock.dynalite.startupSeconds", 60));
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private static @Nullable Dynalite shared;

    private final Process process;
    private final int port;
    private final Path logFile;

    private Dynalite(Process process, int port, Path logFile) {
        this.process = process;
        this.port = port;
        this.logFile = logFile;
    }

    /** The one emulator of this test JVM, started (and installed) on first use. */
    public static synchronized Dynalite shared() {
        if (shared == null) {
            shared = start();
            Dynalite dynalite = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(dynalite::stop, "dynalite-stop"));
        }
        return shared;
    }

    static synchronized void stopShared() {
        if (shared != null) {
            shared.stop();
        }
    }

    /** {@code http://127.0.0.1:<port>}. */
    public URI endpoint() {
        requireAlive();
        return URI.create("http://127.0.0.1:" + port);
    }

    /** Fails, pointing at the log, when the emulator's process has ended. */
    public void requireAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException("dynalite exited with code " + process.exitValue() + " while the tests"
                    + " ran; see " + logFile + " (a client that drops a connection mid-request ends it)");
        }
    }

    /** A plain client, for creating and inspecting tables beside the backend. */
    public DynamoDbClient client() {
        requireAlive();
        return DynamoDbClient.builder().endpointOverride(endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY_ID,
                        SECRET_KEY)))
                .httpClientBuilder(UrlConnectionHttpClient.builder()).build();
    }

    /** Creates a table with a new name starting with {@code name}, keyed as hoplock needs, and returns the name. */
    public String newTable(String name) {
        String table = name + "-" + UUID.randomUUID().toString().substring(0, 8);
        createTable(table, "lease_key", ScalarAttributeType.S, false);
        return table;
    }

    /** Creates a table whose partition key is {@code key} of {@code type}, with a sort key {@code sk} if asked. */
    public void createTable(String table, String key, ScalarAttributeType type, boolean sortKey) {
        try (DynamoDbClient client = client()) {
            client.createTable(create -> {
                create.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST);
                if (sortKey) {
                    create.attributeDefinitions(AttributeDefinition.builder().attributeName(key).attributeType(type)
                                    .build(), AttributeDefinition.builder().attributeName("sk")
                                    .attributeType(ScalarAttributeType.S).build())
                            .keySchema(KeySchemaElement.builder().attributeName(key).keyType(KeyType.HASH).build(),
                                    KeySchemaElement.builder().attributeName("sk").keyType(KeyType.RANGE).build());
                } else {
                    create.attributeDefinitions(AttributeDefinition.builder().attributeName(key).attributeType(type)
                                    .build())
                            .keySchema(KeySchemaElement.builder().attributeName(key).keyType(KeyType.HASH).build());
                }
            });
            awaitStatus(client, table, true);
        }
    }

    /** Deletes a table and waits until it is gone. */
    public void deleteTable(String table) {
        try (DynamoDbClient client = client()) {
            client.deleteTable(delete -> delete.tableName(table));
            awaitStatus(client, table, false);
        }
    }

    /**
     * Waits until the table is ACTIVE ({@code exists}) or gone, polling every 50 ms (the SDK's waiters poll every
     * 20 s, and dynalite sometimes answers CREATING once even with {@code --createTableMs 0}).
     */
    private static void awaitStatus(DynamoDbClient client, String table, boolean exists) {
        await(table + (exists ? " ACTIVE" : " deleted")).atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50)).until(() -> {
                    try {
                        TableStatus status = client.describeTable(d -> d.tableName(table)).table().tableStatus();
                        return exists && status == TableStatus.ACTIVE;
                    } catch (ResourceNotFoundException gone) {
                        return !exists;
                    }
                });
    }

    private static Dynalite start() {
        NodePackage dynalite = NodePackage.installed("dynalite", Paths.get(System.getProperty("hoplock.dynalite.npm",
                "src/test/npm/dynalite")));
        Path dir = Paths.get(System.getProperty("hoplock.test.dir", "target")).toAbsolutePath().resolve("dynalite");
        try {
            Files.createDirectories(dir);
            Path logFile = dir.resolve("dynalite.log");
            int port = freePort();
            long began = System.nanoTime();
            Process process = new ProcessBuilder(List.of("node",
                    dynalite.file("node_modules/dynalite/cli.js").toString(),
                    "--host", "127.0.0.1", "--port", Integer.toString(port),
                    "--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0"))
                    .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
            Dynalite server = new Dynalite(process, port, logFile);
            try {
                server.awaitReady();
            } catch (RuntimeException e) {
                server.stop();
                throw e;
            }
            System.out.println("dynalite 4.0.0 answers on 127.0.0.1:" + port + " after "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began) + " ms");
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start dynalite", e);
        }
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + STARTUP_DEADLINE.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("dynalite exited with code " + process.exitValue()
                        + " before it was ready; see " + logFile);
            }
            if (answers()) {
                return;
            }
            try {
                process.waitFor(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for dynalite", e);
            }
        }
        throw new IllegalStateException("dynalite did not answer within " + STARTUP_DEADLINE.toSeconds() + " s; see "
                + logFile);
    }

    private boolean answers() {
        try {
            HttpURLConnection connection = (HttpURLConnection) endpoint().resolve("/").toURL().openConnection();
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
