/**
 * The JDBC store for hoplock ({@link dev.hoplock.jdbc}): leases as rows, written with conditional UPDATEs. Exports its
 * one package; it reads hoplock-core's API only.
 */
module dev.hoplock.jdbc {
    requires transitive dev.hoplock.core;
    requires transitive java.sql;
    requires org.slf4j;

    exports dev.hoplock.jdbc;
}
