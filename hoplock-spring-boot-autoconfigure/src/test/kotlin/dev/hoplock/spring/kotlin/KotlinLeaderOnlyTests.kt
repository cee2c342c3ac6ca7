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
 * and resumes later, on any thread: the gate spans it only through Spring AOP's coroutine bridge
 * (kotlinx-coroutines-reactor and kotlin-reflect, which this module's tests do not have), so here it is refused at
 * start-up, naming the dependencies to add (the boot-compat applications have them and gate suspend functions). A
 * `@LeaderOnly` function that runs its coroutine with `runBlocking` keeps the whole coroutine inside the gate, sees
 * its lease, and loss cancels it (the gate interrupts the blocked thread; `runBlocking` cancels its coroutine and
 * throws `InterruptedException`).
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
    fun aSuspendFunctionUnderLeaderOnlyWithoutTheCoroutineBridgeIsRefusedAtStartUpNamingTheDependencies() {
        runner.withUserConfiguration(SuspendingConfig::class.java).run { context ->
            val analysis = Failures.analyze(context.startupFailure)
            assertThat(analysis.description).contains(
                "SuspendingReports.publish(Continuation) is a Kotlin suspend function, and",
                "org.jetbrains.kotlinx:kotlinx-coroutines-reactor",
                "so the gate cannot span the coroutine (it would cover only starting it, which returns at its first"
                        + " suspension)"
            )
            assertThat(analysis.action).contains("Add org.jetbrains.kotlinx:kotlinx-coroutines-reactor and"
                    + " org.jetbrains.kotlin:kotlin-reflect to the application")
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
