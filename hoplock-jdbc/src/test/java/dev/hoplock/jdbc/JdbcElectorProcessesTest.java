package dev.hoplock.jdbc;

import dev.hoplock.test.process.ElectorProcessesTest;

import java.util.List;

/**
 * {@link ElectorProcessesTest} on the real PostgreSQL server: three JVMs ({@link JdbcElectorMain}), each an elector
 * over a {@link JdbcBackend} on one table made for this run and dropped after it.
 */
class JdbcElectorProcessesTest extends ElectorProcessesTest {

    private final BackendTable table = new BackendTable(TestDatabase.POSTGRESQL, "hoplock_procs");

    @Override
    protected void prepareStore() throws Exception {
        table.backend(2);
    }

    @Override
    protected void cleanUpStore() throws Exception {
        table.close();
    }

    @Override
    protected Class<?> electorMain() {
        return JdbcElectorMain.class;
    }

    @Override
    protected List<String> storeArguments() {
        return List.of(TestDatabase.POSTGRESQL.url(), TestDatabase.POSTGRESQL.user(), table.name());
    }

    @Override
    protected String storeName() {
        return "PostgreSQL";
    }

    @Override
    protected String runName() {
        return table.name();
    }
}
