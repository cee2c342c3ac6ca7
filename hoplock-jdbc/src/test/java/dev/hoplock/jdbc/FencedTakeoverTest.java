package dev.hoplock.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.Lease;
import dev.hoplock.core.fencing.StaleTokenException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * End to end: a leader reads its fencing token and is then paused past its deadline (its worker held, its elector
 * cut off from the store); a new leader takes over and writes; when the old worker resumes, its fenced write is
 * refused by the database, and the data keeps the new leader's write. Real electors over the JDBC backend, real
 * transactions, on PostgreSQL and MariaDB. Also the case of a token repeated across an outside delete of the lease
 * record: the stale holder's write with the new holder's equal token is refused.
 */
class FencedTakeoverTest {

    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    abstract static class OnDatabase {

        private static final String KEY = "fenced/leader";
        private static final String RESOURCE = "nightly-export";

        private final TestDatabase database;
        private final String leaseTable = TestDatabase.uniqueTable("hoplock_lease");
        private final String fenceTable = TestDatabase.uniqueTable("hoplock_fence");
        private final String dataTable = TestDatabase.uniqueTable("export_state");
        private HikariDataSource pool;
        private JdbcBackend backend;

        OnDatabase(TestDatabase database) {
            this.database = database;
        }

        @BeforeAll
        void createTables() throws Exception {
            pool = database.pool(8);
            backend = JdbcBackend.builder(pool).table(leaseTable).initializeSchema(InitializeSchema.ALWAYS).build();
            JdbcSchema.initializeFenceTable(pool, fenceTable, InitializeSchema.ALWAYS);
            try (Connection connection = pool.getConnection(); Statement create = connection.createStatement()) {
                create.execute("CREATE TABLE " + dataTable + " (resource VARCHAR(255) NOT NULL PRIMARY KEY,"
                        + " written_by VARCHAR(64) NOT NULL, token BIGINT NOT NULL)");
            }
        }

        @AfterAll
        void dropTables() throws SQLException {
            for (String table : new String[] {leaseTable, fenceTable, dataTable}) {
                database.dropTable(pool, table);
            }
            pool.close();
        }

        private Elector elector(dev.hoplock.core.backend.Backend store, String owner) {
            return elector(store, owner, KEY);
        }

        private Elector elector(dev.hoplock.core.backend.Backend store, String owner, String key) {
            return Elector.builder(store, key).owner(owner)
                    .ttl(Duration.ofMillis(1500)).renewInterval(Duration.ofMillis(500))
                    .pollInterval(Duration.ofMillis(100)).requestTimeout(Duration.ofMillis(500))
                    .safetyMargin(Duration.ofMillis(150)).build();
        }

        /** The leader's work: one write of the export state, fenced, in one transaction. */
        private void fencedWrite(String owner, long token) throws SQLException {
            fencedWrite(RESOURCE, owner, token, null);
        }

        /** The same for {@code resource}, fenced with the lease's token and its owner as the holder. */
        private void fencedWrite(String resource, String owner, Lease lease) throws SQLException {
            fencedWrite(resource, owner, lease.generation(), lease);
        }

        private void fencedWrite(String resource, String owner, long token, @Nullable Lease lease)
                throws SQLException {
            try (Connection connection = pool.getConnection()) {
                connection.setAutoCommit(false);
                try {
                    JdbcFence fence = JdbcFence.forConnection(connection).table(fenceTable);
                    if (lease == null) {
                        fence.check(resource, token);
                    } else {
                        fence.check(resource, lease);
                    }
                    try (PreparedStatement delete = connection.prepareStatement(
                            "DELETE FROM " + dataTable + " WHERE resource = ?");
                         PreparedStatement insert = connection.prepareStatement(
                                 "INSERT INTO " + dataTable + " VALUES (?, ?, ?)")) {
                        delete.setString(1, resource);
                        delete.executeUpdate();
                        insert.setString(1, resource);
                        insert.setString(2, owner);
                        insert.setLong(3, token);
                        insert.executeUpdate();
                    }
                    connection.commit();
                } catch (RuntimeException | SQLException e) {
                    connection.rollback();
                    throw e;
                }
            }
        }

        @Test
        void aLeaderPausedPastItsDeadlineIsRefusedByTheDatabaseAfterANewLeaderWrote() throws Exception {
            PausableBackend oldLeadersStore = new PausableBackend(backend);
            Elector old = elector(oldLeadersStore, "old-leader");
            Elector successor = elector(backend, "new-leader");
            AtomicLong oldToken = new AtomicLong();
            CountDownLatch tokenRead = new CountDownLatch(1);
            CountDownLatch resume = new CountDownLatch(1);
            CompletableFuture<Throwable> staleWrite = new CompletableFuture<>();
            CompletableFuture<Void> oldLoop = CompletableFuture.runAsync(() -> {
                try {
                    old.lead(context -> {
                        oldToken.set(context.lease().generation());
                        tokenRead.countDown();
                        awaitIgnoringInterrupts(resume);   // the pause: a frozen thread notices nothing
                        try {
                            fencedWrite("old-leader", oldToken.get());
                            staleWrite.complete(null);
                        } catch (Throwable e) {
                            staleWrite.complete(e);
                        }
                    });
                } catch (Exception e) {
                    staleWrite.completeExceptionally(e);
                }
            });
            AtomicLong newToken = new AtomicLong();
            CountDownLatch newLeaderWrote = new CountDownLatch(1);
            CompletableFuture<Void> newLoop = null;
            try {
                assertThat(tokenRead.await(15, TimeUnit.SECONDS)).as("the first leader read its token").isTrue();
                oldLeadersStore.pause();
                newLoop = CompletableFuture.runAsync(() -> {
                    try {
                        successor.lead(context -> {
                            newToken.set(context.lease().generation());
                            fencedWrite("new-leader", newToken.get());
                            newLeaderWrote.countDown();
                            new CountDownLatch(1).await();
                        });
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });

                assertThat(newLeaderWrote.await(20, TimeUnit.SECONDS)).as("the new leader took over and wrote").isTrue();
                assertThat(old.isLeader()).as("the old leader's term has ended by its own clock").isFalse();
                resume.countDown();

                Throwable refused = staleWrite.get(15, TimeUnit.SECONDS);
                assertThat(newToken.get()).isGreaterThan(oldToken.get());
                assertThat(refused).as("the stale write was refused by the database")
                        .isInstanceOfSatisfying(StaleTokenException.class, e -> {
                            assertThat(e.staleToken()).isEqualTo(oldToken.get());
                            assertThat(e.currentToken()).isEqualTo(newToken.get());
                            assertThat(e.resource()).isEqualTo(RESOURCE);
                        });
                assertThat(storedWrite()).isEqualTo("new-leader@" + newToken.get());
            } finally {
                stopBoth(resume, old, successor, oldLoop, newLoop);
            }
        }

        /**
         * Issue 19: an outside delete of the lease record lets a process that never saw it create it again at
         * generation 1, the token the paused leader still carries. The new leader writes first; the old leader's
         * fenced write with the same token must be refused (before the fix the fence accepted an equal token).
         */
        @Test
        void aStaleLeaderWithTheSameTokenAfterAnOutsideDeleteIsRefused() throws Exception {
            String key = "fenced/recreated";
            String resource = "recreated-export";
            PausableBackend oldLeadersStore = new PausableBackend(backend);
            Elector old = elector(oldLeadersStore, "old-leader", key);
            CountDownLatch leading = new CountDownLatch(1);
            CountDownLatch resume = new CountDownLatch(1);
            AtomicReference<Lease> oldLease = new AtomicReference<>();
            CompletableFuture<Throwable> staleWrite = new CompletableFuture<>();
            CompletableFuture<Void> oldLoop = CompletableFuture.runAsync(() -> {
                try {
                    old.lead(context -> {
                        oldLease.set(context.lease());
                        leading.countDown();
                        awaitIgnoringInterrupts(resume);   // the pause: a frozen thread notices nothing
                        try {
                            fencedWrite(resource, "old-leader", context.lease());
                            staleWrite.complete(null);
                        } catch (Throwable e) {
                            staleWrite.complete(e);
                        }
                    });
                } catch (Exception e) {
                    staleWrite.completeExceptionally(e);
                }
            });
            Elector successor = elector(backend, "new-leader", key);
            CompletableFuture<Void> newLoop = null;
            try {
                assertThat(leading.await(15, TimeUnit.SECONDS)).as("the first leader began its term").isTrue();
                oldLeadersStore.pause();
                deleteLeaseRow(key);   // from outside: an operator, a restore, a dropped and re-created table
                AtomicReference<Lease> newLease = new AtomicReference<>();
                CountDownLatch newLeaderWrote = new CountDownLatch(1);
                newLoop = CompletableFuture.runAsync(() -> {
                    try {
                        successor.lead(context -> {
                            newLease.set(context.lease());
                            fencedWrite(resource, "new-leader", context.lease());
                            newLeaderWrote.countDown();
                            new CountDownLatch(1).await();
                        });
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                assertThat(newLeaderWrote.await(20, TimeUnit.SECONDS)).as("the new leader created the record and"
                        + " wrote").isTrue();
                assertThat(Objects.requireNonNull(newLease.get(), "set by the new leader").generation()).as("the token repeats across the re-creation")
                        .isEqualTo(Objects.requireNonNull(oldLease.get(), "set by the old leader").generation());
                resume.countDown();

                Throwable refused = staleWrite.get(15, TimeUnit.SECONDS);
                assertThat(refused).as("the stale leader's fenced write with the repeated token %d was refused",
                        Objects.requireNonNull(oldLease.get(), "set by the old leader").generation()).isInstanceOfSatisfying(StaleTokenException.class, e -> {
                            assertThat(e.resource()).isEqualTo(resource);
                            assertThat(e.recordedHolder()).isEqualTo(Objects.requireNonNull(newLease.get(), "set by the new leader").owner());
                        });
                assertThat(storedWrite(resource)).isEqualTo("new-leader@" + Objects.requireNonNull(newLease.get(), "set by the new leader").generation());
            } finally {
                stopBoth(resume, old, successor, oldLoop, newLoop);
            }
        }

        /** Lets the paused old leader go, closes both electors and waits for both loops to end. */
        private static void stopBoth(CountDownLatch resume, Elector old, Elector successor,
                CompletableFuture<Void> oldLoop, @Nullable CompletableFuture<Void> newLoop) throws Exception {
            resume.countDown();
            old.close();
            successor.close();
            oldLoop.get(10, TimeUnit.SECONDS);
            if (newLoop != null) {
                newLoop.get(10, TimeUnit.SECONDS);
            }
        }

        private void deleteLeaseRow(String key) throws SQLException {
            try (Connection connection = pool.getConnection(); PreparedStatement delete = connection.prepareStatement(
                    "DELETE FROM " + leaseTable + " WHERE lease_key = ?")) {
                delete.setString(1, key);
                assertThat(delete.executeUpdate()).isEqualTo(1);
            }
        }

        private String storedWrite() throws SQLException {
            return storedWrite(RESOURCE);
        }

        private String storedWrite(String resource) throws SQLException {
            try (Connection connection = pool.getConnection(); PreparedStatement select = connection.prepareStatement(
                    "SELECT written_by, token FROM " + dataTable + " WHERE resource = ?")) {
                select.setString(1, resource);
                try (ResultSet row = select.executeQuery()) {
                    assertThat(row.next()).isTrue();
                    return row.getString(1) + "@" + row.getLong(2);
                }
            }
        }

        private static void awaitIgnoringInterrupts(CountDownLatch latch) {
            boolean interrupted = false;
            while (true) {
                try {
                    latch.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Nested
    class PostgreSql extends OnDatabase {
        PostgreSql() {
            super(TestDatabase.POSTGRESQL);
        }
    }

    @Nested
    class MariaDb extends OnDatabase {
        MariaDb() {
            super(TestDatabase.MARIADB);
        }
    }
}
