package dev.hoplock.dynamodb;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.dynamodb.emulator.Dynalite;
import dev.hoplock.dynamodb.emulator.DynaliteExtension;
import dev.hoplock.test.LockContractTest;
import dev.hoplock.test.SharedBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The named-lock contract for {@link DynamoDbBackend} against dynalite. All tests share one backend and one table; the
 * contract gives every test its own lock names.
 */
@ExtendWith(DynaliteExtension.class)
class DynamoDbLockContractTest extends LockContractTest {

    private static final SharedBackend<DynamoDbBackend> SHARED = new SharedBackend<>(DynamoDbBackend::close);

    private final Dynalite dynalite;

    DynamoDbLockContractTest(Dynalite dynalite) {
        this.dynalite = dynalite;
    }

    @Override
    protected Backend backend() throws Exception {
        return SHARED.get(() -> TestDynamo.backend(dynalite, dynalite.newTable("locks"), TestDynamo.uniquePrefix("l")));
    }

    @AfterAll
    static void closeBackend() throws Exception {
        SHARED.close();
    }
}
