package dev.hoplock.spring.jdbc;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.Lease;
import dev.hoplock.core.fencing.StaleTokenException;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.LeaderContextHolder;
import dev.hoplock.spring.fencing.Fenced;
import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockFencingAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLeaderOnlyAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLocksAutoConfiguration;
import dev.hoplock.spring.support.Databases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 19, "tokens repeat after an outside delete", through the starter: {@code @Fenced} passes the holder of its
 * token to the fence (the elector lease's owner for {@code @LeaderOnly}), so the fence's equal-token rule (an equal
 * token recorded by another holder is refused, see {@link dev.hoplock.core.fencing.Fence}) protects Spring
 * applications too. Two applications (whole contexts with hoplock's auto-configuration, leases, fence table and the
 * application's table in one PostgreSQL database) elect on one lease record; the first leader's record is deleted from
 * outside while it still counts itself leader (its next renewal is far off: the frozen-looking leader of a GC pause),
 * the second application re-creates the record at generation 1, the first leader's own token, and writes. The first
 * leader's {@code @Fenced} write with the repeated token must be refused.
 */
class FencedHolderTests {

    private static final String RESOURCE = "invoices";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Databases DATABASE = Databases.POSTGRESQL;

    private final String leases = Databases.uniqueTable("lease");
    private final String fences = Databases.uniqueTable("fence");
    private final String invoices = Databases.uniqueTable("invoice");

    private final ApplicationContextRunner runner = FencedContexts.runner(HoplockAutoConfiguration.class,
                    HoplockLeaderOnlyAutoConfiguration.class, HoplockLocksAutoConfiguration.class,
                    HoplockFencingAutoConfiguration.class)
            .withPropertyValues(DATABASE.dataSourceProperties())
            .withPropertyValues(FencedContexts.jdbcLeasesAndFence(leases, fences, invoices))
            // A long TTL and renewal: the first leader renews (and would notice the delete) only after the test.
            .withPropertyValues("hoplock.ttl=60s", "hoplock.renew=20s", "hoplock.poll=20s")
            .withBean("invoices", Invoices.class);

    @AfterEach
    void dropTables() {
        DATABASE.dropTables(leases, fences, invoices);
    }

    @Test
    void aStaleLeaderWithTheSameTokenAfterAnOutsideDeleteIsRefusedByItsFencedWrite() {
        DATABASE.execute("CREATE TABLE " + invoices + " (id VARCHAR(128) NOT NULL PRIMARY KEY)");
        runner.withPropertyValues("hoplock.owner=app-a").run(a -> {
            Lease staleLease = awaitLeader(a).currentLease().orElseThrow();

            // From outside: an operator, a restore, a dropped and re-created table. a notices nothing yet.
            DATABASE.execute("DELETE FROM " + leases);

            runner.withPropertyValues("hoplock.owner=app-b").run(b -> {
                Lease newLease = awaitLeader(b).currentLease().orElseThrow();
                assertThat(newLease.generation()).as("b re-created the record: the token repeats")
                        .isEqualTo(staleLease.generation());
                assertThat(newLease.owner()).isEqualTo("app-b");
                assertThat(a.getBean(HoplockElections.class).getDefault().isLeader())
                        .as("a still counts itself leader (it has not renewed since the delete)").isTrue();

                assertThat(b.getBean(Invoices.class).issue("b-1")).isEqualTo("app-b@" + newLease.generation());
                assertThatThrownBy(() -> a.getBean(Invoices.class).issue("a-1"))
                        .as("the stale leader's @Fenced write with the repeated token %d",
                                staleLease.generation())
                        .isInstanceOfSatisfying(StaleTokenException.class, refused -> {
                            assertThat(refused.resource()).isEqualTo(RESOURCE);
                            assertThat(refused.staleToken()).isEqualTo(staleLease.generation());
                            assertThat(refused.currentToken()).isEqualTo(newLease.generation());
                            assertThat(refused.recordedHolder()).isEqualTo("app-b");
                        });
                assertThat(DATABASE.column("SELECT id FROM " + invoices))
                        .as("only the new leader's write committed").containsExactly("b-1");
                // The new leader keeps the resource: its further writes pass.
                assertThat(b.getBean(Invoices.class).issue("b-2")).isEqualTo("app-b@" + newLease.generation());
            });
        });
    }

    private static Elector awaitLeader(AssertableApplicationContext context) {
        return FencedContexts.awaitLeader(context, WAIT);
    }

    /** The leader's fenced write. */
    public static class Invoices extends FencedContexts.InvoiceTable {

        Invoices(JdbcTemplate jdbc, Environment environment) {
            super(jdbc, environment);
        }

        /** Writes one invoice row; answers {@code owner@token} of the lease the call ran under. */
        @LeaderOnly
        @Fenced(RESOURCE)
        @Transactional
        public String issue(String id) {
            insert(id);
            Lease lease = LeaderContextHolder.currentLease().orElseThrow();
            return lease.owner() + "@" + lease.generation();
        }
    }
}
