package dev.hoplock.jdbc;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.CallBudget;
import org.jspecify.annotations.Nullable;

import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLTimeoutException;
import java.util.regex.Pattern;

/**
 * The one place that turns a {@link SQLException} into an answer: a lost race, a statement worth repeating, or a
 * {@link BackendException} whose kind and message say what to do. Classification is by SQLState class (the
 * standard part) plus the few vendor codes that matter on MariaDB/MySQL.
 *
 * <p>Guarantees: messages name the table, the operation and, for a missing table, the DDL file; they never contain a
 * password (driver messages are cleaned of {@code password=...}). For writes every exception says the outcome is
 * unknown unless the database reported that nothing happened.
 */
final class SqlErrors {

    private static final Pattern PASSWORD = Pattern.compile("(?i)(password|pwd)=[^&;,\\s)]*");
    private static final int MYSQL_DUPLICATE_KEY = 1062;
    private static final int MYSQL_LOCK_WAIT_TIMEOUT = 1205;
    private static final int MYSQL_DEADLOCK = 1213;
    private static final int MYSQL_STATEMENT_TIMEOUT = 1969;
    private static final int MYSQL_MAX_EXECUTION_TIME = 3024;
    private static final int MYSQL_TABLE_ACCESS_DENIED = 1142;
    private static final int MYSQL_COLUMN_ACCESS_DENIED = 1143;
    private static final int MYSQL_UNKNOWN_DATABASE = 1049;

    private final TableName table;
    private final String schemaHint;

    SqlErrors(TableName table, String schemaHint) {
        this.table = table;
        this.schemaHint = schemaHint;
    }

    /** A unique-key violation: a concurrent create of the same key won. */
    static boolean isDuplicateKey(SQLException e) {
        return e instanceof SQLIntegrityConstraintViolationException || stateClass(e).equals("23")
                || e.getErrorCode() == MYSQL_DUPLICATE_KEY;
    }

    /**
     * A statement the database rolled back and reported as such (deadlock victim, serialization failure): nothing
     * happened, so repeating it is safe.
     */
    static boolean isRolledBack(SQLException e) {
        String state = state(e);
        return state.equals("40001") || state.equals("40P01") || e.getErrorCode() == MYSQL_DEADLOCK;
    }

    /** The answer for a failure to obtain a connection. */
    BackendException connecting(SQLException e) {
        String state = state(e);
        Kind kind;
        String what;
        if (state.startsWith("28")) {
            kind = Kind.ACCESS_DENIED;
            what = "the database refused the DataSource's credentials (SQLState " + state + "); check the user name"
                    + " and password configured for it and that this user may connect";
            return new BackendException(kind, what + " [table " + table + "]", e);
        }
        if (state.equals("3D000") || e.getErrorCode() == MYSQL_UNKNOWN_DATABASE) {
            return new BackendException(Kind.MISCONFIGURED, "the database named in the DataSource's URL does not exist"
                    + " (SQLState " + state + "): " + clean(e) + "; create it or fix the URL", e);
        }
        kind = state.startsWith("08") ? Kind.UNREACHABLE : Kind.TRANSIENT;
        return new BackendException(kind, "cannot get a connection for hoplock table " + table + " (SQLState "
                + display(state) + "): " + clean(e) + "; nothing was sent", e);
    }

    /**
     * The answer for a failure of a statement. {@code change} is true for an insert, update or delete, whose outcome
     * is then unknown unless the database said it did nothing.
     */
    BackendException executing(SQLException e, String operation, @Nullable String key, CallBudget deadline, boolean change) {
        String state = state(e);
        String target = target(operation, key, table);
        String outcome = change ? "; the outcome is unknown" : "";
        if (state.equals("42P01") || state.equals("42S02")) {
            return new BackendException(Kind.MISSING_CONTAINER, missingTable(), e);
        }
        if (state.equals("42703") || state.equals("42S22")) {
            return new BackendException(Kind.MISCONFIGURED, "table " + table + " lacks a column hoplock needs ("
                    + clean(e) + "); it must have the columns of " + schemaHint, e);
        }
        if (state.equals("42501") || e.getErrorCode() == MYSQL_TABLE_ACCESS_DENIED
                || e.getErrorCode() == MYSQL_COLUMN_ACCESS_DENIED) {
            return new BackendException(Kind.ACCESS_DENIED, "the database user may not run the " + target
                    + " (SQLState " + state + "); grant it SELECT, INSERT, UPDATE and DELETE on " + table, e);
        }
        if (state.startsWith("28")) {
            return new BackendException(Kind.ACCESS_DENIED, "the database refused the DataSource's credentials"
                    + " during the " + target + " (SQLState " + state + "); check the user name and password", e);
        }
        if (isTimeout(e)) {
            return new BackendException(Kind.TRANSIENT, "the " + target + " timed out after "
                    + deadline.budget().toMillis() + " ms" + outcome, e);
        }
        if (state.startsWith("08")) {
            return new BackendException(Kind.TRANSIENT, "the connection was lost during the " + target + " (SQLState "
                    + state + "): " + clean(e) + outcome, e);
        }
        if (isRolledBack(e)) {
            return new BackendException(Kind.TRANSIENT, "the database rolled back the " + target + " (SQLState "
                    + state + ", a conflict with a concurrent statement) until no time was left; nothing was"
                    + " written", e);
        }
        return new BackendException(Kind.TRANSIENT, "the " + target + " failed (SQLState " + display(state) + "): "
                + clean(e) + outcome, e);
    }

    /** "the read of 'key' in table t", or "the verification of table t" without a key. */
    static String target(String operation, @Nullable String key, TableName table) {
        return key == null ? operation + " of table " + table : operation + " of '" + key + "' in table " + table;
    }

    /** The message for a missing lease table: its name and the DDL to create it. */
    String missingTable() {
        return "hoplock table " + table + " does not exist; create it with the DDL in " + schemaHint
                + " (inside the hoplock-jdbc jar), or let hoplock create it with initializeSchema(ALWAYS)";
    }

    private static boolean isTimeout(SQLException e) {
        String state = state(e);
        int code = e.getErrorCode();
        return e instanceof SQLTimeoutException || state.equals("57014") || state.equals("70100")
                || state.startsWith("HYT") || code == MYSQL_STATEMENT_TIMEOUT || code == MYSQL_MAX_EXECUTION_TIME
                || code == MYSQL_LOCK_WAIT_TIMEOUT || state.equals("55P03");
    }

    private static String state(SQLException e) {
        return e.getSQLState() == null ? "" : e.getSQLState();
    }

    private static String stateClass(SQLException e) {
        String state = state(e);
        return state.length() >= 2 ? state.substring(0, 2) : "";
    }

    private static String display(String state) {
        return state.isEmpty() ? "none" : state;
    }

    /** The driver's message without passwords. */
    static String clean(Throwable e) {
        String message = String.valueOf(e.getMessage()).strip();
        return PASSWORD.matcher(message).replaceAll("$1=***");
    }
}
