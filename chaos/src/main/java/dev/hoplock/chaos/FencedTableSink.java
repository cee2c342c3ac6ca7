package dev.hoplock.chaos;

import dev.hoplock.core.fencing.FencingException;
import dev.hoplock.core.fencing.StaleTokenException;
import dev.hoplock.jdbc.JdbcFence;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The node's side of the fenced database run: each append is one transaction on PostgreSQL or MariaDB that first runs
 * {@link JdbcFence#check(String, long, String)} on the session's resource with its token (the lease generation, the
 * lock's token or the claim's token) and this process's owner id as the holder, then inserts one row into the write
 * table, then commits. A {@link StaleTokenException} (a lower token, or an equal one recorded by another holder) rolls
 * the transaction back, is answered {@code STALE <current>} and is appended to this sink's refusal log
 * ({@code refused_nanos,owner,token,current_token,check_before_nanos,check_after_nanos,resource}), flushed before the
 * answer returns. Any other failure rolls back, drops the connection (a new
 * one is opened at the next append) and is answered {@code ERROR <SQLState or exception>}.
 *
 * <p>{@code fenced = false} skips the check: the negative control, whose stale writes the orchestrator must catch.
 *
 * <p>The inserted row carries {@code written_nanos}: this JVM's {@link System#nanoTime()} after the check passed and
 * before the commit, so a row's commit lies after its {@code written_nanos}. Not thread-safe (one work loop).
 */
final class FencedTableSink implements ChaosNode.Downstream {

    private final String url;
    private final String user;
    private final String fenceTable;
    private final String writeTable;
    private final PrintWriter refusals;
    private final boolean fenced;
    private @Nullable Connection connection;

    FencedTableSink(String url, String user, String fenceTable, String writeTable, Path refusalLog, boolean fenced)
            throws IOException {
        this.fenced = fenced;
        this.url = url;
        this.user = user;
        this.fenceTable = fenceTable;
        this.writeTable = writeTable;
        this.refusals = new PrintWriter(Files.newBufferedWriter(refusalLog, StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND));
    }

    @Override
    public String append(String owner, String resource, long token, long before, long after) {
        try {
            if (connection == null) {
                connection = DriverManager.getConnection(url, user, "");
                connection.setAutoCommit(false);
            }
        } catch (SQLException e) {
            connection = null;
            return "ERROR connect:" + e.getSQLState();
        }
        try {
            if (fenced) {
                JdbcFence.forConnection(connection).table(fenceTable).check(resource, token, owner);
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + writeTable
                    + " (resource, owner, token, check_before_nanos, check_after_nanos, written_nanos)"
                    + " VALUES (?, ?, ?, ?, ?, ?)")) {
                insert.setString(1, resource);
                insert.setString(2, owner);
                insert.setLong(3, token);
                insert.setLong(4, before);
                insert.setLong(5, after);
                insert.setLong(6, System.nanoTime());
                insert.executeUpdate();
            }
            connection.commit();
            return "OK";
        } catch (StaleTokenException e) {
            long refused = System.nanoTime();
            rollback();
            refusals.println(refused + "," + owner + "," + e.staleToken() + "," + e.currentToken() + "," + before + ","
                    + after + "," + resource);
            refusals.flush();
            return "STALE " + e.currentToken();
        } catch (SQLException | FencingException e) {
            rollback();
            close();
            String state = e instanceof SQLException sql ? sql.getSQLState()
                    : e.getCause() instanceof SQLException sql ? sql.getSQLState() : null;
            return "ERROR " + (state != null ? state : e.getClass().getSimpleName());
        }
    }

    private void rollback() {
        try {
            Objects.requireNonNull(connection, "rolled back only from append, connected").rollback();
        } catch (SQLException e) {
            close();
        }
    }

    private void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // already broken
            }
            connection = null;
        }
    }
}
