package dev.hoplock.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.hoplock.core.fencing.FencingException;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@link JdbcFence} inside real transactions on PostgreSQL, MariaDB and H2: stale tokens are refused in either
 * order, a concurrent stale transaction waits for the newer one and is then refused, and over 200 rounds of racing
 * transactions no stale write commits and no legitimate write is refused.
 */
class JdbcFenceTest {

    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    abstract static class OnDatabase {

        private static final int RACERS = 4;
        private static final int ROUNDS = 200;

        private final TestDatabase database;
        private final String fenceTable = TestDatabase.uniqueTable("hoplock_fence");
        private final String dataTable = TestDatabase.uniqueTable("fenced_data");
        private HikariDataSource pool;

        OnDatabase(TestDatabase database) {
            this.database = database;
        }

        @BeforeAll
        void createTables() throws SQLException {
            pool = database.pool(RACERS + 4);
            assertThat(JdbcSchema.initializeFenceTable(pool, fenceTable, InitializeSchema.ALWAYS)).isTrue();
            try (Connection connection = pool.getConnection(); Statement create = connection.createStatement()) {
                create.execute("CREATE TABLE " + dataTable + " (resource VARCHAR(255) NOT NULL PRIMARY KEY,"
                        + " last_token BIGINT NOT NULL, writes BIGINT NOT NULL)");
            }
        }

        @AfterAll
        void dropTables() throws SQLException {
            database.dropTable(pool, fenceTable);
            database.dropTable(pool, dataTable);
            pool.close();
        }

        /** The fence with a lock timeout far above any wait of these tests (the bounded wait has tests of its own). */
        private JdbcFence fence(Connection connection) {
            return JdbcFence.forConnection(connection).table(fenceTable).lockTimeout(Duration.ofSeconds(60));
        }

        private Connection begin() throws SQLException {
            Connection connection = pool.getConnection();
            connection.setAutoCommit(false);
            return connection;
        }

        private static String newResource() {
            return "resource-" + UUID.randomUUID();
        }

        @Test
        void aLowerTokenAfterAHigherOneIsRefusedNamingBothTokens() throws SQLException {
            String resource = newResource();
            try (Connection five = begin()) {
                fence(five).check(resource, 5);
                five.commit();
            }
            try (Connection four = begin()) {
                assertThatThrownBy(() -> fence(four).check(resource, 4))
                        .isInstanceOfSatisfying(StaleTokenException.class, e -> {
                            assertThat(e.resource()).isEqualTo(resource);
                            assertThat(e.staleToken()).isEqualTo(4);
                            assertThat(e.currentToken()).isEqualTo(5);
                            assertThat(e.getMessage()).contains(resource).contains("token 4").contains("token 5");
                        });
                four.rollback();
            }
            assertThat(storedToken(resource)).isEqualTo(5);
        }

        @Test
        void aHigherTokenAfterALowerOneAndAnEqualTokenPass() throws SQLException {
            String resource = newResource();
            for (long token : new long[] {4, 5, 5}) {
                try (Connection connection = begin()) {
                    fence(connection).check(resource, token);
                    connection.commit();
                }
            }
            assertThat(storedToken(resource)).isEqualTo(5);
        }

        /**
         * Issue 19: after an outside delete of the lease record two holders can carry one token; the fence records
         * the holder with the token and refuses the same token from another holder, in either order of the checks.
         */
        @Test
        void anEqualTokenFromAnotherHolderIsRefusedNamingBothHolders() throws SQLException {
            String resource = newResource();
            try (Connection first = begin()) {
                fence(first).check(resource, 1, "node-b");
                first.commit();
            }
            try (Connection same = begin()) {
                fence(same).check(resource, 1, "node-b");
                same.commit();
            }
            try (Connection other = begin()) {
                assertThatThrownBy(() -> fence(other).check(resource, 1, "node-a"))
                        .isInstanceOfSatisfying(StaleTokenException.class, e -> {
                            assertThat(e.staleToken()).isEqualTo(1);
                            assertThat(e.currentToken()).isEqualTo(1);
                            assertThat(e.recordedHolder()).isEqualTo("node-b");
                            assertThat(e.getMessage()).contains("'node-b'").contains("'node-a'")
                                    .contains("deleted and re-created");
                        });
                other.rollback();
            }
            try (Connection higher = begin()) {
                fence(higher).check(resource, 2, "node-a");
                higher.commit();
            }
            assertThat(storedToken(resource)).isEqualTo(2);
        }

        /** A check without a holder keeps the older rule (an equal token passes) and does not erase the holder. */
        @Test
        void aCheckWithoutAHolderIsCompatibleWithEveryHolder() throws SQLException {
            String resource = newResource();
            for (String holder : new String[] {"", "node-a", "", "node-a"}) {
                try (Connection connection = begin()) {
                    fence(connection).check(resource, 3, holder);
                    connection.commit();
                }
            }
            try (Connection other = begin()) {
                assertThatThrownBy(() -> fence(other).check(resource, 3, "node-b"))
                        .as("the holder recorded after a holder-less check").isInstanceOf(StaleTokenException.class);
                other.rollback();
            }
        }

        /** A fence table from before the holder column is reported with the statement that adds the column. */
        @Test
        void aFenceTableWithoutTheHolderColumnIsReportedWithTheAlterStatement() throws SQLException {
            String old = TestDatabase.uniqueTable("hoplock_fence_old");
            try (Connection connection = pool.getConnection(); Statement create = connection.createStatement()) {
                create.execute("CREATE TABLE " + old + " (resource VARCHAR(255) NOT NULL PRIMARY KEY,"
                        + " token BIGINT NOT NULL, updated_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP)");
            }
            try (Connection connection = begin()) {
                assertThatThrownBy(() -> JdbcFence.forConnection(connection).table(old).check("r", 1, "node-a"))
                        .isInstanceOf(FencingException.class)
                        .hasMessageContaining("ALTER TABLE " + old + " ADD COLUMN holder VARCHAR(255)");
                connection.rollback();
            } finally {
                database.dropTable(pool, old);
            }
        }

        @Test
        void aRolledBackCheckRecordsNothing() throws SQLException {
            String resource = newResource();
            try (Connection four = begin()) {
                fence(four).check(resource, 4);
                four.commit();
            }
            try (Connection nine = begin()) {
                fence(nine).check(resource, 9);
                nine.rollback();
            }
            try (Connection five = begin()) {
                fence(five).check(resource, 5);
                five.commit();
            }
            assertThat(storedToken(resource)).isEqualTo(5);
        }

        @Test
        void theStaleTransactionWaitsForTheNewerOneAndIsThenRefused() throws Exception {
            String resource = newResource();
            ExecutorService thread = Executors.newSingleThreadExecutor();
            try (Connection five = begin(); Connection four = begin(); Connection observer = database.connect()) {
                fence(five).check(resource, 5);
                long fourSession = database.sessionId(four);

                Future<Throwable> stale = thread.submit(() -> outcome(() -> fence(four).check(resource, 4)));
                await().atMost(Duration.ofSeconds(10)).until(() -> database.waitsForLock(observer, fourSession));
                assertThat(stale).as("blocked while 5 is uncommitted").isNotDone();

                five.commit();

                assertThat(stale.get(10, TimeUnit.SECONDS)).isInstanceOfSatisfying(StaleTokenException.class,
                        e -> assertThat(e.currentToken()).isEqualTo(5));
                four.rollback();
            } finally {
                thread.shutdownNow();
            }
            assertThat(storedToken(resource)).isEqualTo(5);
        }

        @Test
        void theNewerTransactionWaitsForAnEarlierStaleOneAndThenPasses() throws Exception {
            String resource = newResource();
            try (Connection setUp = begin()) {
                fence(setUp).check(resource, 1);
                setUp.commit();
            }
            ExecutorService thread = Executors.newSingleThreadExecutor();
            try (Connection four = begin(); Connection five = begin(); Connection observer = database.connect()) {
                fence(four).check(resource, 4);
                long fiveSession = database.sessionId(five);

                Future<Throwable> newer = thread.submit(() -> outcome(() -> fence(five).check(resource, 5)));
                await().atMost(Duration.ofSeconds(10)).until(() -> database.waitsForLock(observer, fiveSession));
                assertThat(newer).as("blocked while 4 is uncommitted").isNotDone();

                four.commit();

                assertThat(newer.get(10, TimeUnit.SECONDS)).as("5 passes after 4 committed").isNull();
                five.commit();
            } finally {
                thread.shutdownNow();
            }
            assertThat(storedToken(resource)).isEqualTo(5);
        }

        /**
         * Issue 23, fix 7: a frozen earlier holder whose open transaction holds the fence row holds up the newer
         * holder's check for at most the lock timeout; the check then fails naming the setting, and passes once the
         * frozen transaction ended.
         */
        @Test
        void aFrozenHolderHoldsUpANewerCheckAtMostTheLockTimeout() throws Exception {
            String resource = newResource();
            Duration timeout = Duration.ofSeconds(1);
            ExecutorService thread = Executors.newSingleThreadExecutor();
            try (Connection frozen = begin(); Connection live = begin()) {
                fence(frozen).check(resource, 4);   // the frozen leader: its transaction stays open

                long started = System.nanoTime();
                Future<Throwable> check = thread.submit(() -> outcome(() ->
                        fence(live).lockTimeout(timeout).check(resource, 5)));
                Throwable failure = check.get(timeout.plusSeconds(10).toMillis(), TimeUnit.MILLISECONDS);
                Duration waited = Duration.ofNanos(System.nanoTime() - started);

                assertThat(failure).isInstanceOfSatisfying(FenceLockTimeoutException.class, e -> {
                    assertThat(e.resource()).isEqualTo(resource);
                    assertThat(e.timeout()).isEqualTo(timeout);
                    assertThat(e).hasMessageContaining("hoplock.fence.lock-timeout").hasMessageContaining("1s")
                            .hasMessageContaining(resource).hasMessageContaining("frozen");
                });
                assertThat(waited).as("waited about the timeout, not until the frozen transaction ended")
                        .isGreaterThanOrEqualTo(timeout.minusMillis(100)).isLessThan(timeout.plusSeconds(5));
                live.rollback();

                frozen.rollback();   // the frozen transaction ends (here: rolled back, as after a crash)
                fence(live).lockTimeout(timeout).check(resource, 5);
                live.commit();
            } finally {
                thread.shutdownNow();
            }
            assertThat(storedToken(resource)).isEqualTo(5);
        }

        /** The other order: the newer check commits first; the frozen holder resumes and is refused by the token. */
        @Test
        void aFrozenHolderThatResumesAfterTheNewerCheckCommittedIsRefusedByTheToken() throws SQLException {
            String resource = newResource();
            try (Connection frozen = begin(); Connection live = begin()) {
                fence(live).lockTimeout(Duration.ofSeconds(1)).check(resource, 5);
                live.commit();
                assertThatThrownBy(() -> fence(frozen).lockTimeout(Duration.ofSeconds(1)).check(resource, 4))
                        .isInstanceOfSatisfying(StaleTokenException.class,
                                e -> assertThat(e.currentToken()).isEqualTo(5));
                frozen.rollback();
            }
            assertThat(storedToken(resource)).isEqualTo(5);
        }

        /** The caller's own lock-wait setting is back after a check, passed or timed out. */
        @Test
        void theCallersLockWaitSettingIsRestoredAfterACheck() throws Exception {
            String resource = newResource();
            try (Connection connection = begin()) {
                String before = lockWaitSetting(connection);
                fence(connection).lockTimeout(Duration.ofMillis(1500)).check(resource, 1);
                assertThat(lockWaitSetting(connection)).isEqualTo(before);
                connection.commit();
            }
        }

        @Test
        void aLockTimeoutBelowOneMillisecondIsRefused() throws SQLException {
            try (Connection connection = begin()) {
                assertThatThrownBy(() -> fence(connection).lockTimeout(Duration.ZERO))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1ms");
                assertThatThrownBy(() -> fence(connection).lockTimeout(Duration.ofSeconds(-1)))
                        .isInstanceOf(IllegalArgumentException.class);
                connection.rollback();
            }
        }

        private String lockWaitSetting(Connection connection) throws SQLException {
            String query = switch (database) {
                case POSTGRESQL -> "SELECT current_setting('lock_timeout')";
                case MARIADB -> "SELECT @@SESSION.innodb_lock_wait_timeout";
                case H2 -> "SELECT LOCK_TIMEOUT()";
            };
            try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(query)) {
                assertThat(row.next()).isTrue();
                return row.getString(1);
            }
        }

        @Test
        void aCheckOutsideATransactionIsRefused() throws SQLException {
            try (Connection connection = pool.getConnection()) {
                connection.setAutoCommit(true);
                assertThatThrownBy(() -> fence(connection).check(newResource(), 1))
                        .isInstanceOf(FencingException.class).hasMessageContaining("inside a transaction");
            }
        }

        @Test
        void aMissingFenceTableNamesTheTableAndTheDdlFile() throws SQLException {
            String missing = TestDatabase.uniqueTable("hoplock_nofence");
            try (Connection connection = begin()) {
                assertThatThrownBy(() -> JdbcFence.forConnection(connection).table(missing).check("r", 1))
                        .isInstanceOfSatisfying(FencingException.class, e -> assertThat(e.getMessage())
                                .contains(missing).contains("fence-" + database.name().toLowerCase() + ".sql"));
                connection.rollback();
            }
        }

        /**
         * Each round, {@value #RACERS} transactions with random tokens (repeats allowed) race for one new resource:
         * each checks the fence, then overwrites the resource's data row, remembering its position in the order of
         * writes. Committed writes must have non-decreasing tokens in that order (0 stale writes accepted), and every
         * refusal must name a token that a committed transaction really wrote (0 legitimate writes refused).
         */
        @Test
        void randomInterleavingsAcceptNoStaleWriteAndRefuseNoLegitimateOne() throws Exception {
            Random random = new Random(20261130L);
            ExecutorService threads = Executors.newFixedThreadPool(RACERS);
            int staleAccepted = 0;
            int legitimateRefused = 0;
            int refusals = 0;
            try {
                for (int round = 0; round < ROUNDS; round++) {
                    String resource = newResource();
                    try (Connection connection = pool.getConnection(); PreparedStatement insert =
                            connection.prepareStatement("INSERT INTO " + dataTable + " VALUES (?, 0, 0)")) {
                        insert.setString(1, resource);
                        insert.executeUpdate();
                    }
                    CountDownLatch ready = new CountDownLatch(RACERS);
                    CountDownLatch go = new CountDownLatch(1);
                    List<Future<Attempt>> attempts = new ArrayList<>();
                    for (int i = 0; i < RACERS; i++) {
                        long token = 1 + random.nextInt(5);
                        boolean warmUp = random.nextBoolean();
                        attempts.add(threads.submit(() -> attempt(resource, token, warmUp, ready, go)));
                    }
                    assertThat(ready.await(10, TimeUnit.SECONDS)).isTrue();
                    go.countDown();
                    List<Attempt> done = new ArrayList<>();
                    for (Future<Attempt> attempt : attempts) {
                        done.add(attempt.get(30, TimeUnit.SECONDS));
                    }
                    List<Attempt> committed = done.stream().filter(a -> a.position > 0)
                            .sorted((a, b) -> Long.compare(a.position, b.position)).toList();
                    for (int i = 1; i < committed.size(); i++) {
                        if (committed.get(i).token < committed.get(i - 1).token) {
                            staleAccepted++;
                        }
                    }
                    for (Attempt refused : done.stream().filter(a -> a.refusedBy > 0).toList()) {
                        refusals++;
                        if (committed.stream().noneMatch(c -> c.token == refused.refusedBy)
                                || refused.refusedBy <= refused.token) {
                            legitimateRefused++;
                        }
                    }
                    assertThat(committed.size() + done.stream().filter(a -> a.refusedBy > 0).count())
                            .as("round %d: every transaction committed or was refused: %s", round, done)
                            .isEqualTo(RACERS);
                    assertThat(storedToken(resource)).as("round %d: highest committed token", round)
                            .isEqualTo(committed.stream().mapToLong(a -> a.token).max().orElseThrow());
                }
            } finally {
                threads.shutdownNow();
            }
            System.out.printf("fence interleavings on %s: %d rounds x %d transactions, %d refusals, %d stale writes"
                    + " accepted, %d legitimate writes refused%n", database, ROUNDS, RACERS, refusals, staleAccepted,
                    legitimateRefused);
            assertThat(staleAccepted).as("stale writes accepted").isZero();
            assertThat(legitimateRefused).as("legitimate writes refused").isZero();
        }

        /** One racing transaction: its token, its position among committed writes (0: none), the refusing token. */
        private record Attempt(long token, long position, long refusedBy) {
        }

        private Attempt attempt(String resource, long token, boolean warmUp, CountDownLatch ready, CountDownLatch go)
                throws Exception {
            try (Connection connection = begin()) {
                if (warmUp) {
                    try (Statement statement = connection.createStatement()) {
                        statement.executeQuery("SELECT 1").close();
                    }
                }
                ready.countDown();
                go.await();
                try {
                    fence(connection).check(resource, token);
                } catch (StaleTokenException e) {
                    connection.rollback();
                    return new Attempt(token, 0, e.currentToken());
                }
                long position;
                try (PreparedStatement read = connection.prepareStatement("SELECT writes FROM " + dataTable
                        + " WHERE resource = ? FOR UPDATE")) {
                    read.setString(1, resource);
                    try (ResultSet row = read.executeQuery()) {
                        row.next();
                        position = row.getLong(1) + 1;
                    }
                }
                try (PreparedStatement write = connection.prepareStatement("UPDATE " + dataTable
                        + " SET last_token = ?, writes = ? WHERE resource = ?")) {
                    write.setLong(1, token);
                    write.setLong(2, position);
                    write.setString(3, resource);
                    write.executeUpdate();
                }
                connection.commit();
                return new Attempt(token, position, 0);
            }
        }

        private long storedToken(String resource) throws SQLException {
            try (Connection connection = pool.getConnection(); PreparedStatement select = connection.prepareStatement(
                    "SELECT token FROM " + fenceTable + " WHERE resource = ?")) {
                connection.setAutoCommit(true);
                select.setString(1, resource);
                try (ResultSet row = select.executeQuery()) {
                    assertThat(row.next()).as("fence row of %s", resource).isTrue();
                    return row.getLong(1);
                }
            }
        }

        /** Runs {@code check} and returns what it threw, or null when it passed. */
        private static @Nullable Throwable outcome(ThrowingRunnable check) {
            try {
                check.run();
                return null;
            } catch (Throwable e) {
                return e;
            }
        }

        @FunctionalInterface
        private interface ThrowingRunnable {
            void run() throws Exception;
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

    @Nested
    class H2 extends OnDatabase {
        H2() {
            super(TestDatabase.H2);
        }
    }
}
