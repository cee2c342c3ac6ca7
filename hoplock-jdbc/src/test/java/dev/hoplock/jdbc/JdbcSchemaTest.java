package dev.hoplock.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The shipped DDL files as the initializer reads them, without a database. */
class JdbcSchemaTest {

    @ParameterizedTest
    @EnumSource(Database.class)
    void everyShippedFileIsOneCreateStatementForTheConfiguredTable(Database database) {
        String lease = JdbcSchema.leaseTableDdl(database, "ops.my_leases");
        String fence = JdbcSchema.fenceTableDdl(database, "my_fence");

        assertThat(JdbcSchema.statements(lease)).singleElement().asString()
                .startsWith("CREATE TABLE IF NOT EXISTS ops.my_leases (")
                .contains("lease_key").contains("content").contains("version").contains("updated_at")
                .doesNotContain("hoplock_lease").doesNotContain("--");
        assertThat(JdbcSchema.statements(fence)).singleElement().asString()
                .startsWith("CREATE TABLE IF NOT EXISTS my_fence (").contains("resource").contains("token")
                .doesNotContain("hoplock_fence");
    }

    @Test
    void theDatabaseIsRecognisedFromItsProductName() {
        assertThat(Database.fromProductName("PostgreSQL")).contains(Database.POSTGRESQL);
        assertThat(Database.fromProductName("MariaDB")).contains(Database.MARIADB);
        assertThat(Database.fromProductName("MySQL")).contains(Database.MARIADB);
        assertThat(Database.fromProductName("H2")).contains(Database.H2);
        assertThat(Database.fromProductName("Oracle")).isEmpty();
        assertThat(Database.fromProductName(null)).isEmpty();
    }
}
