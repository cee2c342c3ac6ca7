package dev.hoplock.spring.ownership;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.ownership.Member;
import dev.hoplock.core.ownership.Rendezvous;
import dev.hoplock.spring.leader.LeaderContextHolder;
import dev.hoplock.spring.leader.NotLeaderException;
import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.leader.OnNonLeader;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLeaderOnlyAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockOwnershipAutoConfiguration;
import dev.hoplock.spring.support.Failures;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code @LeaderOnly(key = ...)}: start-up refusals of bad key expressions and missing configuration, the key's token
 * inside the call, and a running call interrupted when a joining member takes its key, which is then acted on by the
 * new owner only, with a higher token.
 */
class KeyedLeaderOnlyTests {

    private static final Duration WAIT = Duration.ofSeconds(20);

    private final Backend shared = new InMemoryBackend();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, HoplockAutoConfiguration.class,
                    HoplockLeaderOnlyAutoConfiguration.class, HoplockOwnershipAutoConfiguration.class))
            .withBean(Backend.class, () -> shared)
            .withPropertyValues("hoplock.ttl=60s", "hoplock.renew=20s", "hoplock.poll=20s",
                    "hoplock.ownership.ttl=1500ms", "hoplock.ownership.renew=500ms", "hoplock.ownership.poll=100ms",
                    "hoplock.ownership.release-timeout=1s");

    private ApplicationContextRunner member(String id) {
        return runner.withPropertyValues("hoplock.owner=" + id, "hoplock.ownership.group=billing",
                "hoplock.ownership.member-id=" + id);
    }

    // ------------------------------------------------------------------ start-up refusals

    @Test
    void anExpressionThatDoesNotParseIsRefusedAtStartup() {
        member("a").withUserConfiguration(BadExpressionConfig.class).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("BadExpression.work(String)", "'#orgId +'",
                    "does not parse");
            assertThat(analysis.getAction()).contains("@LeaderOnly(key = \"#orgId\")");
        });
    }

    @Test
    void anExpressionNamingNoParameterIsRefusedAtStartup() {
        member("a").withUserConfiguration(UnknownParameterConfig.class).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("UnknownParameter.work(String)", "#customer");
        });
    }

    @Test
    void aKeyAndAnElectionTogetherAreRefusedAtStartup() {
        member("a").withUserConfiguration(KeyAndElectionConfig.class).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("names both an election ('jobs') and a key");
        });
    }

    @Test
    void aKeyWithoutAnOwnershipGroupIsRefusedAtStartup() {
        runner.withPropertyValues("hoplock.owner=a").withUserConfiguration(KeyedConfig.class).run(context -> {
            FailureAnalysis analysis = Failures.analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("Keyed.work(String)", "no ownership group");
            assertThat(analysis.getAction()).contains("hoplock.ownership.group=billing");
        });
    }

    // ------------------------------------------------------------------ the gate

    @Test
    void theOwnerRunsWithTheKeysTokenAndAJoiningOwnerInterruptsItAndTakesOver() {
        member("member-a").withUserConfiguration(KeyedConfig.class).run(a -> {
            HoplockOwnership ownershipA = a.getBean(HoplockOwnership.class);
            await().atMost(WAIT).until(ownershipA::isMember);
            // Membership comes before acting: a member owns its keys only once its view has settled (rule M3).
            await().atMost(WAIT).until(() -> ownershipA.isOwner("org-1"));
            Keyed keyedA = a.getBean(Keyed.class);
            assertThat(keyedA.work("org-1")).isEqualTo(ownershipA.token("org-1").orElseThrow());
            assertThat(LeaderContextHolder.current()).as("restored after the call").isEmpty();

            List<Member> both = List.of(Member.of("member-a"), Member.of("member-b"));
            String moving = IntStream.range(0, 1000).mapToObj(i -> "org-" + i)
                    .filter(key -> Rendezvous.isOwner(key, "member-b", both)).findFirst().orElseThrow();
            long tokenA = ownershipA.token(moving).orElseThrow();
            CompletableFuture<Boolean> blocked = CompletableFuture.supplyAsync(() -> {
                boolean interrupted = keyedA.blockUntilInterrupted(moving);
                return interrupted && !Thread.currentThread().isInterrupted();
            });
            assertThat(keyedA.started().await(10, TimeUnit.SECONDS)).isTrue();

            member("member-b").withUserConfiguration(KeyedConfig.class).run(b -> {
                HoplockOwnership ownershipB = b.getBean(HoplockOwnership.class);
                assertThat(blocked.get(20, TimeUnit.SECONDS))
                        .as("a's call was interrupted when b joined, and the interrupt did not leak").isTrue();
                await().atMost(WAIT).until(() -> ownershipB.isOwner(moving));
                Keyed keyedB = b.getBean(Keyed.class);
                assertThat(keyedB.mustOwn(moving)).as("b's token").isGreaterThan(tokenA);
                assertThat(ownershipA.isOwner(moving)).isFalse();
                assertThat(keyedA.work(moving)).as("a skips the key").isNull();
                assertThatThrownBy(() -> keyedA.mustOwn(moving)).isInstanceOf(NotLeaderException.class)
                        .hasMessageContaining("key '" + moving + "'").hasMessageContaining("'member-b'");
            });
        });
    }

    // ------------------------------------------------------------------ beans

    public static class Keyed {

        private final CountDownLatch started = new CountDownLatch(1);

        /** Counted down when a blocking call has started (a method: the bean is a class-based proxy). */
        public CountDownLatch started() {
            return started;
        }

        /** The key's token, from the leader context. */
        @LeaderOnly(key = "#orgId")
        public Long work(String orgId) {
            assertThat(LeaderContextHolder.currentLease().orElseThrow().key()).isEqualTo(orgId);
            return LeaderContextHolder.currentLease().orElseThrow().generation();
        }

        @LeaderOnly(key = "#p0", onNonLeader = OnNonLeader.THROW)
        public long mustOwn(String orgId) {
            return LeaderContextHolder.currentLease().orElseThrow().generation();
        }

        /** Blocks until interrupted; true when it was. */
        @LeaderOnly(key = "#orgId")
        public Boolean blockUntilInterrupted(String orgId) {
            started.countDown();
            try {
                new CountDownLatch(1).await(30, TimeUnit.SECONDS);
                return false;
            } catch (InterruptedException e) {
                return true;
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class KeyedConfig {
        @Bean
        Keyed keyed() {
            return new Keyed();
        }
    }

    public static class BadExpression {
        @LeaderOnly(key = "#orgId +")
        public void work(String orgId) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BadExpressionConfig {
        @Bean
        BadExpression bad() {
            return new BadExpression();
        }
    }

    public static class UnknownParameter {
        @LeaderOnly(key = "#customer")
        public void work(String orgId) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UnknownParameterConfig {
        @Bean
        UnknownParameter unknown() {
            return new UnknownParameter();
        }
    }

    public static class KeyAndElection {
        @LeaderOnly(election = "jobs", key = "#orgId")
        public void work(String orgId) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class KeyAndElectionConfig {
        @Bean
        KeyAndElection both() {
            return new KeyAndElection();
        }
    }
}
