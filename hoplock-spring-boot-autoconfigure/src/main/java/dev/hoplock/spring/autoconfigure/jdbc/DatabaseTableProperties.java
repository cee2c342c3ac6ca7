package dev.hoplock.spring.autoconfigure.jdbc;

import dev.hoplock.spring.autoconfigure.HoplockProperties.SchemaInitialization;
import org.jspecify.annotations.Nullable;

/**
 * A table hoplock keeps in an application database: which {@code DataSource} holds it, its name, and whether
 * hoplock creates it at start-up. The lease table of the JDBC store ({@link JdbcProperties}, {@code hoplock.jdbc.*})
 * and the fence table ({@link JdbcFenceProperties}, {@code hoplock.fence.*}) are both one. The field comments below
 * are the JDBC store's descriptions in the configuration metadata; the fence's own, and both tables' default names,
 * are in {@code META-INF/additional-spring-configuration-metadata.json}. When hoplock creates a table is the shared
 * {@link SchemaInitialization}.
 */
public abstract class DatabaseTableProperties {

    /**
     * The name of the DataSource bean that holds the lease table. Default: the application's DataSource (the only
     * one, or the @Primary one).
     */
    private @Nullable String dataSource;

    /**
     * The lease table: an unquoted identifier, optionally schema-qualified (ops.hoplock_lease). Its DDL is in
     * META-INF/hoplock/jdbc/schema-postgresql.sql, schema-mariadb.sql and schema-h2.sql of hoplock-jdbc.
     */
    private String table;

    /**
     * When to create the lease table at start-up: embedded (only in an embedded database such as H2, the
     * default), always, or never.
     */
    private SchemaInitialization initializeSchema = SchemaInitialization.EMBEDDED;

    /** @param defaultTable the table's name unless set */
    DatabaseTableProperties(String defaultTable) {
        this.table = defaultTable;
    }

    public @Nullable String getDataSource() {
        return dataSource;
    }

    public void setDataSource(@Nullable String dataSource) {
        this.dataSource = dataSource;
    }

    public String getTable() {
        return table;
    }

    public void setTable(String table) {
        this.table = table;
    }

    public SchemaInitialization getInitializeSchema() {
        return initializeSchema;
    }

    public void setInitializeSchema(SchemaInitialization initializeSchema) {
        this.initializeSchema = initializeSchema;
    }
}
