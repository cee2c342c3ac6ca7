package dev.hoplock.jdbc;

/**
 * When hoplock creates its table at start-up, like Spring Boot's {@code spring.sql.init.mode}. Creation runs the
 * shipped DDL ({@code CREATE TABLE IF NOT EXISTS}), so it never changes or drops an existing table.
 */
public enum InitializeSchema {
    /** Only for an embedded database (H2 in memory or in a local file). The default. */
    EMBEDDED,
    /** Always; the database user then needs the right to create tables. */
    ALWAYS,
    /** Never: create the table yourself from the DDL file (the production style). */
    NEVER
}
