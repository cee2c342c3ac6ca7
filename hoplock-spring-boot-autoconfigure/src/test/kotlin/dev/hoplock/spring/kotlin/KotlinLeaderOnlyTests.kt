package dev.hoplock.spring.kotlin

import dev.hoplock.spring.leader.HoplockElections
import dev.hoplock.spring.leader.LeaderContextHolder
import dev.hoplock.spring.leader.LeaderOnly
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration
import dev.hoplock.spring.autoconfigure.HoplockLeaderOnlyAutoConfiguration
import dev.hoplock.spring.support.Failures
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.Test
import org.springframework.boot.autoconfigure.AutoConfigurations
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration
import org.springframework.boot.test.context.runner.ApplicationContextRunner
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit

/**
 * `@LeaderOnly` and Kotlin coroutines, with real Kotlin code. A `suspend` function returns at its first suspension
 * and resumes later, on any thread, after the gate (a scope around the call on the calling thread) has closed: it is
 * refused at start-up, with the reason and the fix. The fix works: a `@LeaderOnly` function that runs its coroutine
 * with `runBlocking` keeps the whole coroutine inside the gate, sees its lease, and loss cancels it (the gate
 * interrupts the blocked thread; `runBlocking` cancels its coroutine and throws `InterruptedException`).
 */
class KotlinLeaderOnlyTests {

    private val runner = ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                AopAutoConfiguration::class.java, HoplockAutoConfiguration::class.java,
                HoplockLeaderOnlyAutoConfiguration::class.java
            )
        )
        .withPropertyValues("hoplock.backend=memory", "hoplock.owner=kotlin", "hoplock.ttl=60s")

    @Test
    fun aSuspendFunctionUnderLeaderOnlyIsRefusedAtStartUpWithTheReasonAndTheFix() {
        runner.withUserConfiguration(SuspendingConfig::class.java).run { context ->
            val analysis = Failures.analyze(context.startupFailure)
            assertThat(analysis.description).contains(
                "SuspendingReports.publish(Continuation) is a Kotlin suspend function",
                "the gate would cover only starting the coroutine, which returns at its first suspension and"
                        + " resumes later outside the gate, after leadership may have ended"
            )
            assertThat(analysis.action).contains("@LeaderOnly method that blocks until the work is done", "runBlocking")
        }
    }

    @Test
    fun aCoroutineRunWithRunBlockingUnderTheGateSeesItsLeaseAndIsCancelledOnLoss() {
        runner.withUserConfiguration(BlockingConfig::class.java).run { context ->
            assertThat(context).hasNotFailed()
            val elector = context.getBean(HoplockElections::class.java).default
            await().atMost(Duration.ofSeconds(10)).until { elector.isLeader }
            val generation = elector.currentLease().orElseThrow().generation()
            val reports = context.getBean(BlockingReports::class.java)
            val entered = CountDownLatch(1)

            val result = CompletableFuture.supplyAsync { reports.publish(entered) }
            assertThat(entered.await(10, TimeUnit.SECONDS)).`as`("the coroutine started: %s", result).isTrue()
            assertThat(elector.stepDown()).isTrue()

            assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("cancelled under token $generation")
            assertThat(reports.publish(CountDownLatch(1))).`as`("skipped on a non-leader").isNull()
        }
    }
}

/** A suspend function under the gate: refused. */
open class SuspendingReports {
    @LeaderOnly
    open suspend fun publish(): String {
        delay(10)
        return "published"
    }
}

/** The fix: the coroutine runs inside the gated call. */
open class BlockingReports {
    @LeaderOnly
    open fun publish(entered: CountDownLatch): String? = try {
        runBlocking {
            val token = LeaderContextHolder.currentLease().orElseThrow().generation()
            try {
                entered.countDown()
                delay(30_000)
                "finished under token $token"
            } catch (e: kotlinx.coroutines.CancellationException) {
                cancelledUnder = token
                throw e
            }
        }
    } catch (e: InterruptedException) {
        "cancelled under token $cancelledUnder"
    }

    @Volatile
    private var cancelledUnder: Long = -1
}

@Configuration(proxyBeanMethods = false)
open class SuspendingConfig {
    @Bean
    open fun suspendingReports() = SuspendingReports()
}

@Configuration(proxyBeanMethods = false)
open class BlockingConfig {
    @Bean
    open fun blockingReports() = BlockingReports()
}
