package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.support.Databases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A real start of an application whose {@code hoplock.backend=jdbc} table does not exist on PostgreSQL: Boot's
 * failure report names the table, the property and the line it was set on, and the DDL file for PostgreSQL (the
 * report quoted in the README).
 */
@ExtendWith(OutputCaptureExtension.class)
class JdbcFailureReportTests {

    @Test
    void theReportNamesTheTableThePropertyAndTheDdlForPostgresql(CapturedOutput output) {
        Databases.POSTGRESQL.dropTables("billing_leases_never_created");
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);

        assertThatThrownBy(() -> application.run(
                "--spring.config.location=classpath:jdbc-missing-table/application.properties",
                "--spring.main.banner-mode=off")).isNotNull();

        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("The hoplock lease table billing_leases_never_created (hoplock.jdbc.table) does not exist in"
                        + " the database of DataSource 'dataSource', and hoplock.jdbc.initialize-schema is embedded,"
                        + " so hoplock did not create it. Its DDL for this database is"
                        + " META-INF/hoplock/jdbc/schema-postgresql.sql.")
                .contains("hoplock.jdbc.table set in class path resource [jdbc-missing-table/application.properties]"
                        + " - 5:20")
                .contains("Create the table with the DDL in META-INF/hoplock/jdbc/schema-postgresql.sql");
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({DataSourceAutoConfiguration.class, HoplockAutoConfiguration.class})
    static class App {
    }
}
