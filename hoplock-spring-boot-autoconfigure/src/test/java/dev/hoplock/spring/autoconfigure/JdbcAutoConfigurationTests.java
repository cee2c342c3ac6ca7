package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.jdbc.JdbcBackend;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.support.Databases;
import dev.hoplock.spring.support.Failures;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code hoplock.backend=jdbc} in real application contexts on PostgreSQL and MariaDB (and H2 where the embedded
 * default matters): the store over the application's DataSource elects and gates, the schema modes, and the start-up
 * failure reports (missing table, no DataSource, refused credentials, an unknown DataSource name).
 */
class JdbcAutoConfigurationTests {

    private static final String PASSWORD = "not-the-password-7731";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, AopAutoConfiguration.class,
                    HoplockAutoConfiguration.class, HoplockLeaderOnlyAutoConfiguration.class))
            .withPropertyValues("hoplock.backend=jdbc", "hoplock.ttl=10s");

    private ApplicationContextRunner on(Databases database, String table, String... more) {
        return runner.withPropertyValues(database.dataSourceProperties())
                .withPropertyValues("hoplock.jdbc.table=" + table)
                .withPropertyValues(more);
    }

    // ------------------------------------------------------------------ elects and gates

    @ParameterizedTest
    @EnumSource(value = Databases.class, names = {"POSTGRESQL", "MARIADB"})
    void theStoreOverTheApplicationsDataSourceElectsAndGates(Databases database) {
        String table = Databases.uniqueTable("lease");
        try {
            ApplicationContextRunner app = on(database, table, "hoplock.jdbc.initialize-schema=always",
                    "hoplock.key=jobs/nightly").withBean(Job.class);
            app.withPropertyValues("hoplock.owner=first").run(first -> {
                assertThat(first).hasNotFailed().hasSingleBean(JdbcBackend.class);
                assertThat(first.getBean(Backend.class).describe())
                        .isEqualTo("jdbc:" + database.name().toLowerCase() + " table " + table);
                Elector leader = awaitLeader(first);
                assertThat(first.getBean(Job.class).run()).isEqualTo("ran");
                assertThat(database.column("SELECT lease_key FROM " + table)).containsExactly("jobs/nightly");

                app.withPropertyValues("hoplock.owner=second").run(second -> {
                    assertThat(second).hasNotFailed();
                    Elector follower = second.getBean(HoplockElections.class).getDefault();
                    await().atMost(Duration.ofSeconds(10)).until(() -> follower.holder()
                            .map(holder -> holder.owner().equals("first")).orElse(false));
                    assertThat(follower.isLeader()).isFalse();
                    assertThat(second.getBean(Job.class).run()).as("skipped on the follower").isNull();
                    assertThat(leader.isLeader()).isTrue();
                    assertThat(first.getBean(Job.class).run()).isEqualTo("ran");
                });
            });
        } finally {
            database.dropTables(table);
        }
    }

    // ------------------------------------------------------------------ schema modes

    @ParameterizedTest
    @EnumSource(value = Databases.class, names = {"POSTGRESQL", "MARIADB"})
    void aMissingTableFailsTheStartNamingTheTableAndTheDdlForTheDatabase(Databases database) {
        String table = Databases.uniqueTable("missing");
        // initialize-schema is left at its default, embedded: nothing is created on a server database.
        on(database, table).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("The hoplock lease table " + table
                    + " (hoplock.jdbc.table) does not exist", "hoplock.jdbc.initialize-schema is embedded",
                    database.leaseDdl());
            assertThat(analysis.getAction()).contains("Create the table with the DDL in " + database.leaseDdl(),
                    "hoplock.jdbc.initialize-schema=always");
        });
        assertThat(database.tableExists(table)).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = Databases.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void alwaysCreatesTheTableOnEveryDatabase(Databases database) {
        String table = Databases.uniqueTable("created");
        try {
            on(database, table, "hoplock.jdbc.initialize-schema=always").run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(database.tableExists(table)).isTrue();
            });
        } finally {
            database.dropTables(table);
        }
    }

    @Test
    void embeddedCreatesTheTableInH2AndNeverDoesNot() {
        String created = Databases.uniqueTable("embedded");
        String absent = Databases.uniqueTable("never");
        try {
            on(Databases.H2, created).run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(Databases.H2.tableExists(created)).isTrue();
            });
            on(Databases.H2, absent, "hoplock.jdbc.initialize-schema=never").run(context -> {
                FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                assertThat(analysis.getDescription()).contains(absent, "initialize-schema is never",
                        Databases.H2.leaseDdl());
            });
            assertThat(Databases.H2.tableExists(absent)).isFalse();
        } finally {
            Databases.H2.dropTables(created, absent);
        }
    }

    // ------------------------------------------------------------------ failure reports

    @Test
    void withoutADataSourceTheReportSaysToAddSpringJdbcOrChooseAnotherStore() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class))
                .withPropertyValues("hoplock.backend=jdbc").run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription())
                            .isEqualTo("hoplock.backend is jdbc, but the application has no DataSource bean.");
                    assertThat(analysis.getAction()).contains("spring-boot-starter-jdbc", "spring.datasource.url",
                            "set hoplock.backend to another store");
                });
    }

    @Test
    void withoutHoplockJdbcTheReportSaysToAddIt() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader("dev.hoplock.jdbc."))
                .withPropertyValues("hoplock.backend=jdbc").run(context -> {
                    FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("dev.hoplock:hoplock-jdbc is not on the classpath");
                });
    }

    @Test
    void refusedCredentialsAreReportedWithoutThePassword() {
        String table = Databases.uniqueTable("denied");
        runner.withPropertyValues("spring.datasource.url=" + Databases.MARIADB.url(),
                "spring.datasource.username=hoplock_nobody", "spring.datasource.password=" + PASSWORD,
                "hoplock.jdbc.table=" + table).run(context -> {
                    Throwable failure = context.getStartupFailure();
                    FailureAnalysis analysis = Failures.analyze(failure);
                    assertThat(analysis.getDescription()).contains("The database refused hoplock's JDBC store",
                            "DataSource 'dataSource'", "28000").doesNotContain(PASSWORD);
                    assertThat(analysis.getAction()).contains("spring.datasource.password").doesNotContain(PASSWORD);
                    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
                        assertThat(String.valueOf(cause.getMessage())).doesNotContain(PASSWORD);
                    }
                });
    }

    @Test
    void aDatabaseThatCannotBeReachedAtStartDoesNotFailTheStartAndIsNeverLedOn() {
        runner.withPropertyValues("spring.datasource.url=jdbc:postgresql://127.0.0.1:1/test",
                "spring.datasource.username=postgres", "spring.datasource.hikari.connection-timeout=250",
                "hoplock.jdbc.table=unreachable_leases").run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(JdbcBackend.class);
                    Elector elector = context.getBean(HoplockElections.class).getDefault();
                    // The electors verify the store before campaigning: here that keeps failing, so nobody leads.
                    await().atMost(Duration.ofSeconds(10)).until(() -> elector.status().verificationProblem()
                            .isPresent());
                    assertThat(elector.status().verification()).isNotEqualTo(
                            dev.hoplock.core.election.StoreVerification.VERIFIED);
                    assertThat(elector.status().verificationProblem().orElseThrow()).contains("unreachable_leases");
                    assertThat(elector.isLeader()).isFalse();
                });
    }

    @Test
    void aNamedDataSourceIsUsedAndAnUnknownNameIsReported() {
        String table = Databases.uniqueTable("named");
        try {
            ApplicationContextRunner twoDataSources = new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class))
                    .withUserConfiguration(TwoDataSources.class)
                    .withPropertyValues("hoplock.backend=jdbc", "hoplock.jdbc.table=" + table,
                            "hoplock.jdbc.initialize-schema=always");
            twoDataSources.withPropertyValues("hoplock.jdbc.data-source=leases").run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(Backend.class).describe()).startsWith("jdbc:postgresql");
                assertThat(Databases.POSTGRESQL.tableExists(table)).isTrue();
            });
            twoDataSources.withPropertyValues("hoplock.jdbc.data-source=lease").run(context -> {
                FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
                assertThat(analysis.getDescription()).contains("hoplock.jdbc.data-source names the DataSource bean"
                        + " 'lease', but there is no DataSource bean of that name", "leases", "application");
            });
        } finally {
            Databases.POSTGRESQL.dropTables(table);
        }
    }

    // ------------------------------------------------------------------ properties

    @Test
    void theNewPropertiesAreKnownToTheUnknownPropertyCheckAndInTheMetadata() throws IOException {
        assertThat(KnownProperties.ofHoplock().names()).contains("hoplock.jdbc.data-source", "hoplock.jdbc.table",
                "hoplock.jdbc.initialize-schema", "hoplock.jdbc.request-timeout", "hoplock.fence.data-source",
                "hoplock.fence.table", "hoplock.fence.initialize-schema");
        String metadata;
        try (InputStream in = getClass().getClassLoader()
                .getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("the configuration processor's metadata").isNotNull();
            metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(metadata).contains("\"hoplock.jdbc.table\"", "\"hoplock.jdbc.initialize-schema\"",
                "\"hoplock.jdbc.data-source\"", "\"hoplock.fence.table\"", "\"value\": \"jdbc\"");
    }

    private static Elector awaitLeader(AssertableApplicationContext context) {
        assertThat(context).hasNotFailed();
        Elector elector = context.getBean(HoplockElections.class).getDefault();
        await().atMost(Duration.ofSeconds(10)).until(elector::isLeader);
        return elector;
    }

    /** A leader-only job. */
    public static class Job {

        @LeaderOnly
        public String run() {
            return "ran";
        }
    }

    /** The application's own H2 DataSource (primary) and a PostgreSQL one named 'leases'. */
    @Configuration(proxyBeanMethods = false)
    static class TwoDataSources {

        @Bean
        @Primary
        DataSource application() {
            JdbcDataSource h2 = new JdbcDataSource();
            h2.setURL(Databases.H2.url());
            h2.setUser(Databases.H2.user());
            return h2;
        }

        @Bean
        DataSource leases() {
            org.postgresql.ds.PGSimpleDataSource postgres = new org.postgresql.ds.PGSimpleDataSource();
            postgres.setUrl(Databases.POSTGRESQL.url());
            postgres.setUser(Databases.POSTGRESQL.user());
            return postgres;
        }
    }
}
