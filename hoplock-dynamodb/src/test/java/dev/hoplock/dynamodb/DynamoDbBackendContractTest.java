package dev.hoplock.dynamodb;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.dynamodb.emulator.Dynalite;
import dev.hoplock.dynamodb.emulator.DynaliteExtension;
import dev.hoplock.test.BackendContractTest;
import dev.hoplock.test.SharedBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.time.Duration;
import java.util.UUID;

/**
 * The backend contract, races included, for {@link DynamoDbBackend} against dynalite, on a table of its own that
 * {@link #recreateContainer()} really deletes and creates again. All tests share one backend; the contract gives every
 * test its own keys.
 */
@ExtendWith(DynaliteExtension.class)
class DynamoDbBackendContractTest extends BackendContractTest {

    private static final String TABLE = "contract-" + UUID.randomUUID().toString().substring(0, 8);
    private static final SharedBackend<DynamoDbBackend> SHARED = new SharedBackend<>(DynamoDbBackend::close);

    private final Dynalite dynalite;

    DynamoDbBackendContractTest(Dynalite dynalite) {
        this.dynalite = dynalite;
    }

    @Override
    protected Backend backend() throws Exception {
        return SHARED.get(() -> {
            dynalite.createTable(TABLE, "lease_key", ScalarAttributeType.S, false);
            return TestDynamo.backend(dynalite, TABLE, "");
        });
    }

    @AfterAll
    static void closeBackend() throws Exception {
        SHARED.close();
    }

    /** Deletes the table with every item in it and creates it again under the running backend. */
    @Override
    protected void recreateContainer() {
        dynalite.deleteTable(TABLE);
        dynalite.createTable(TABLE, "lease_key", ScalarAttributeType.S, false);
    }

    @Override
    protected Duration timeout() {
        return Duration.ofSeconds(15);
    }

    /** 16 writers per round: one Node.js process serves every request, on 2 shared cores; they still race. */
    @Override
    protected int raceWriters() {
        return 16;
    }

    @Override
    protected int raceRounds() {
        return 10;
    }
}
