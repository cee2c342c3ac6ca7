package dev.hoplock.dynamodb;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.dynamodb.emulator.Dynalite;
import dev.hoplock.dynamodb.emulator.DynaliteExtension;
import dev.hoplock.test.ElectorFuzzTest;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;

/**
 * The elector fuzz run over {@link DynamoDbBackend} against dynalite, on a table of its own. The TTL is longer than
 * the in-memory run's because every elector's requests queue in one Node.js process.
 */
@ExtendWith(DynaliteExtension.class)
class DynamoDbElectorFuzzTest extends ElectorFuzzTest {

    private static @Nullable DynamoDbBackend backend;

    private final Dynalite dynalite;

    DynamoDbElectorFuzzTest(Dynalite dynalite) {
        this.dynalite = dynalite;
    }

    @Override
    protected Backend backend() {
        backend = TestDynamo.backend(dynalite, dynalite.newTable("fuzz"), "");
        return backend;
    }

    @Override
    protected Duration ttl() {
        return Duration.ofMillis(1500);
    }

    @AfterAll
    static void closeBackend() {
        if (backend != null) {
            backend.close();
        }
    }
}
