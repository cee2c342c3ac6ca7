package dev.hoplock.compat.coroutines

import dev.hoplock.compat.CompatApplication
import dev.hoplock.core.election.LeadershipLostException
import dev.hoplock.spring.leader.HoplockElections
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.ConfigurableApplicationContext
import java.nio.file.Path
import java.time.Duration

/**
 * Suspend functions and a `Mono` under `@LeaderOnly` and `@WithLock` in the compatibility application, on this
 * module's Spring Boot version (and, in boot-4.0-aot, started from the AOT-generated initializer): Spring AOP runs the
 * coroutine as a Mono whose subscription the gate spans. On the leader they run with their tokens in the coroutine's
 * `ReactorContext`; on a follower a suspend function returns null and the Mono and the Flow are empty; a step-down cancels a
 * running coroutine, and its caller gets `LeadershipLostException`.
 */
class CoroutineCompatTests {

    @TempDir
    lateinit var directory: Path

    private val started = mutableListOf<ConfigurableApplicationContext>()

    @AfterEach
    fun close() {
        started.forEach { it.close() }
    }

    private fun start(owner: String): ConfigurableApplicationContext =
        SpringApplicationBuilder(CompatApplication::class.java).main(CompatApplication::class.java)
            .properties(
                "hoplock.filesystem.directory=$directory", "hoplock.owner=$owner", "hoplock.ttl=10s",
                "hoplock.renew=2s", "hoplock.poll=100ms"
            )
            .run().also { started.add(it) }

    @Test
    fun suspendAndMonoMethodsRunOnTheLeaderWithTheirTokensAndAreSkippedOnAFollower() {
        val a = start("coroutines-a")
        val electorA = a.getBean(HoplockElections::class.java).default
        await().atMost(Duration.ofSeconds(10)).until { electorA.isLeader }
        val b = start("coroutines-b")
        val electorB = b.getBean(HoplockElections::class.java).default
        await().atMost(Duration.ofSeconds(10)).until { electorB.holder().isPresent }
        val generation = electorA.currentLease().orElseThrow().generation()
        val jobsA = a.getBean(CoroutineJobs::class.java)
        val jobsB = b.getBean(CoroutineJobs::class.java)

        runBlocking {
            assertThat(jobsA.leaderToken()).`as`("the leader's coroutine reads its lease").isEqualTo(generation)
            assertThat(jobsB.leaderToken()).`as`("skipped on the follower: null").isNull()
            val token = jobsA.lockToken()
            assertThat(token).`as`("the lock's token in the coroutine").isNotNull()
            assertThat(jobsB.lockToken()).`as`("released after a's call: b takes it anew").isGreaterThan(token)
            assertThat(jobsA.leaderFlow().toList()).containsExactly("ran")
            assertThat(jobsB.leaderFlow().toList()).`as`("an empty Flow on the follower").isEmpty()
        }
        val onLeader: Long? = jobsA.leaderMono().block(Duration.ofSeconds(5))
        val onFollower: Long? = jobsB.leaderMono().block(Duration.ofSeconds(5))
        assertThat(onLeader).isEqualTo(generation)
        assertThat(onFollower).`as`("an empty Mono on the follower").isNull()
    }

    @Test
    fun aStepDownCancelsARunningCoroutine() {
        val a = start("coroutines-c")
        val elector = a.getBean(HoplockElections::class.java).default
        await().atMost(Duration.ofSeconds(10)).until { elector.isLeader }
        val jobs = a.getBean(CoroutineJobs::class.java)

        runBlocking {
            val running = CompletableDeferred<Unit>()
            val work = async(Dispatchers.Default) { runCatching { jobs.untilCancelled(running) } }
            withTimeout(10_000) { running.await() }
            assertThat(elector.stepDown()).isTrue()
            val outcome = withTimeout(10_000) { work.await() }
            assertThat(outcome.exceptionOrNull()).isInstanceOf(LeadershipLostException::class.java)
        }
        // The cancelled coroutine runs its catch block on its own dispatcher, after the caller was told.
        await().atMost(Duration.ofSeconds(10)).untilAsserted {
            assertThat(jobs.cancelled()).`as`("the suspend function's coroutine was cancelled").isEqualTo(1)
        }
    }
}
