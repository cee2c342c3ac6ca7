package dev.hoplock.spring.jdbc;

import dev.hoplock.core.fencing.Fence;
import dev.hoplock.core.fencing.StaleTokenException;
import dev.hoplock.core.ownership.Member;
import dev.hoplock.core.ownership.Rendezvous;
import dev.hoplock.spring.leader.LeaderContextHolder;
import dev.hoplock.spring.fencing.Fenced;
import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockFencingAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLeaderOnlyAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLocksAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockOwnershipAutoConfiguration;
import dev.hoplock.spring.fencing.FencingTokenSource;
import dev.hoplock.spring.fencing.FirstTokenSource;
import dev.hoplock.spring.ownership.HoplockOwnership;
import dev.hoplock.spring.support.Databases;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Issue 19, defect 6: keyed {@code @Fenced} through the starter. Two members of one ownership group, each a whole
 * application context with hoplock's auto-configuration (leases, fence table and the application's table in one
 * PostgreSQL database), call a {@code @LeaderOnly(key = "#orgId") @Fenced @Transactional} method. Each key has its own
 * token sequence, so each key is fenced on its own resource ({@code "invoices/" + key}): the owner of a key acquired
 * at an earlier epoch (a lower token) is not refused because another key's owner wrote with a higher one, while a stale
 * owner of the same key still is.
 */
class KeyedFencedTests {

    private static final String RESOURCE = "invoices";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Databases DATABASE = Databases.POSTGRESQL;

    private final String leases = Databases.uniqueTable("lease");
    private final String fences = Databases.uniqueTable("fence");
    private final String invoices = Databases.uniqueTable("invoice");

    private final ApplicationContextRunner runner = FencedContexts.runner(HoplockAutoConfiguration.class,
                    HoplockLeaderOnlyAutoConfiguration.class, HoplockOwnershipAutoConfiguration.class,
                    HoplockLocksAutoConfiguration.class, HoplockFencingAutoConfiguration.class)
            .withPropertyValues(DATABASE.dataSourceProperties())
            .withPropertyValues(FencedContexts.jdbcLeasesAndFence(leases, fences, invoices))
            .withPropertyValues("hoplock.ttl=60s", "hoplock.renew=20s", "hoplock.poll=20s",
                    "hoplock.ownership.group=billing", "hoplock.ownership.ttl=2s", "hoplock.ownership.renew=500ms",
                    "hoplock.ownership.poll=100ms", "hoplock.ownership.release-timeout=1s")
            .withBean("billing", Billing.class);

    private ApplicationContextRunner member(String id) {
        return runner.withPropertyValues("hoplock.owner=" + id, "hoplock.ownership.member-id=" + id);
    }

    @AfterEach
    void dropTables() {
        DATABASE.dropTables(leases, fences, invoices);
    }

    @Test
    void eachKeyIsFencedOnItsOwnResourceSoAnEarlierEpochsOwnerIsNotRefusedButAStaleOwnerOfItsKeyIs() {
        DATABASE.execute("CREATE TABLE " + invoices + " (id VARCHAR(128) NOT NULL PRIMARY KEY)");
        List<Member> both = List.of(Member.of("member-a"), Member.of("member-b"));
        List<String> keys = IntStream.range(0, 1000).mapToObj(i -> "org-" + i).toList();
        String keptByA = keys.stream().filter(key -> Rendezvous.isOwner(key, "member-a", both)).findFirst()
                .orElseThrow();
        String movedToB = keys.stream().filter(key -> Rendezvous.isOwner(key, "member-b", both)).findFirst()
                .orElseThrow();

        member("member-a").run(a -> {
            assertThat(a).hasNotFailed();
            assertThat(a.getBean(FencingTokenSource.class)).as("the starter's token source, with @WithLock and"
                    + " @LeaderOnly").isInstanceOf(FirstTokenSource.class);
            HoplockOwnership ownershipA = a.getBean(HoplockOwnership.class);
            await().atMost(WAIT).until(() -> ownershipA.isOwner(keptByA));

            member("member-b").run(b -> {
                assertThat(b).hasNotFailed();
                HoplockOwnership ownershipB = b.getBean(HoplockOwnership.class);
                await().atMost(WAIT).until(() -> ownershipB.isOwner(movedToB) && ownershipA.isOwner(keptByA)
                        && !ownershipA.isOwner(movedToB));
                long tokenA = ownershipA.token(keptByA).orElseThrow();
                long tokenB = ownershipB.token(movedToB).orElseThrow();
                assertThat(tokenB).as("b acquired %s at a later epoch than a acquired %s", movedToB, keptByA)
                        .isGreaterThan(tokenA);

                // b writes its key with the higher token, then a writes its own key with its (lower) earlier token.
                assertThat(b.getBean(Billing.class).bill(movedToB)).isEqualTo(tokenB);
                assertThat(a.getBean(Billing.class).bill(keptByA)).as("a, the owner of %s since an earlier epoch,"
                        + " is not refused because b wrote %s with a higher token", keptByA, movedToB)
                        .isEqualTo(tokenA);
                assertThat(DATABASE.column("SELECT id FROM " + invoices + " ORDER BY id"))
                        .containsExactlyInAnyOrder(movedToB + "@" + tokenB, keptByA + "@" + tokenA);
                assertThat(storedToken(keptByA)).containsExactly(String.valueOf(tokenA));
                assertThat(storedToken(movedToB)).containsExactly(String.valueOf(tokenB));
                assertThat(FencedContexts.storedTokens(DATABASE, fences, RESOURCE))
                        .as("no key is fenced on the declared resource itself").isEmpty();

                // A newer owner of a's key has written it (token + 1): a, now stale for that key, is refused.
                Fence fence = a.getBean(Fence.class);
                new TransactionTemplate(a.getBean(PlatformTransactionManager.class))
                        .executeWithoutResult(status -> fence.check(RESOURCE + "/" + keptByA, tokenA + 1));
                assertThatThrownBy(() -> a.getBean(Billing.class).bill(keptByA))
                        .isInstanceOfSatisfying(StaleTokenException.class, refused -> {
                            assertThat(refused.resource()).isEqualTo(RESOURCE + "/" + keptByA);
                            assertThat(refused.staleToken()).isEqualTo(tokenA);
                            assertThat(refused.currentToken()).isEqualTo(tokenA + 1);
                        });
                assertThat(DATABASE.column("SELECT id FROM " + invoices)).hasSize(2);
            });
        });
    }

    private List<String> storedToken(String key) {
        return FencedContexts.storedTokens(DATABASE, fences, RESOURCE + "/" + key);
    }

    /** The keyed, fenced work: one invoice row per call, named by key and token. */
    public static class Billing extends FencedContexts.InvoiceTable {

        Billing(JdbcTemplate jdbc, Environment environment) {
            super(jdbc, environment);
        }

        /** The key's token, or null when this member does not own the key. */
        @LeaderOnly(key = "#orgId")
        @Fenced(RESOURCE)
        @Transactional
        public @Nullable Long bill(String orgId) {
            long token = LeaderContextHolder.currentLease().orElseThrow().generation();
            insert(orgId + "@" + token);
            return token;
        }
    }
}
