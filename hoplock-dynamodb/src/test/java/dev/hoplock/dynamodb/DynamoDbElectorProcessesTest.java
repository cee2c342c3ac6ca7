package dev.hoplock.dynamodb;

import dev.hoplock.dynamodb.emulator.Dynalite;
import dev.hoplock.dynamodb.emulator.DynaliteExtension;
import dev.hoplock.test.process.ElectorProcessesTest;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.UUID;

/**
 * {@link ElectorProcessesTest} on dynalite: three JVMs ({@link DynamoElectorMain}), each an elector over a
 * {@link DynamoDbBackend} on one table made for this run and deleted after it; the leader is killed with SIGKILL, the
 * next stopped with SIGTERM.
 */
@ExtendWith(DynaliteExtension.class)
class DynamoDbElectorProcessesTest extends ElectorProcessesTest {

    private final Dynalite dynalite;
    private String table = "";
    private String prefix = "";

    DynamoDbElectorProcessesTest(Dynalite dynalite) {
        this.dynalite = dynalite;
    }

    @Override
    protected void prepareStore() {
        table = dynalite.newTable("procs");
        prefix = "run-" + UUID.randomUUID().toString().substring(0, 8) + "/";
    }

    @Override
    protected void cleanUpStore() {
        dynalite.deleteTable(table);
    }

    @Override
    protected Class<?> electorMain() {
        return DynamoElectorMain.class;
    }

    @Override
    protected List<String> storeArguments() {
        return List.of(dynalite.endpoint().toString(), table, prefix);
    }

    @Override
    protected String storeName() {
        return "dynalite";
    }

    @Override
    protected String runName() {
        return table;
    }
}
