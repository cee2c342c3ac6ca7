package dev.hoplock.dynamodb;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.dynamodb.emulator.Dynalite;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

/** Builders for the tests: backends over dynalite, each test on its own prefix or table. */
final class TestDynamo {

    private TestDynamo() {
    }

    /** A fresh prefix, so that tests sharing one table never see each other's items. */
    static String uniquePrefix(String name) {
        return "t/" + name + "-" + UUID.randomUUID().toString().substring(0, 8) + "/";
    }

    /** A builder for an emulator at {@code endpoint}: static test credentials, a generous request timeout (2 cores). */
    static DynamoDbBackendBuilder builder(URI endpoint, String table, String prefix) {
        return DynamoDbBackend.builder()
                .endpoint(endpoint.toString())
                .region("us-east-1")
                .credentials(Dynalite.ACCESS_KEY_ID, Dynalite.SECRET_KEY)
                .table(table)
                .prefix(prefix)
                .requestTimeout(Duration.ofSeconds(15))
                .connectTimeout(Duration.ofSeconds(1));
    }

    /** A backend over dynalite, without the start-up check (it has its own tests). */
    static DynamoDbBackend backend(Dynalite dynalite, String table, String prefix) {
        try {
            return builder(dynalite.endpoint(), table, prefix).verify(false).build();
        } catch (BackendException e) {
            throw new AssertionError("building without the check contacts nothing, so cannot fail: " + e, e);
        }
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
