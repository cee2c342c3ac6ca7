package dev.hoplock.compat.coroutines

import dev.hoplock.core.election.LeaderContext
import dev.hoplock.core.lock.LockHandle
import dev.hoplock.spring.leader.LeaderOnly
import dev.hoplock.spring.leader.ReactiveLeaderContext
import dev.hoplock.spring.lock.ReactiveLockContext
import dev.hoplock.spring.lock.WithLock
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.reactor.ReactorContext
import org.springframework.stereotype.Component
import reactor.core.publisher.Mono
import java.util.concurrent.atomic.AtomicInteger
import kotlin.coroutines.cancellation.CancellationException
import kotlin.coroutines.coroutineContext

/**
 * Kotlin coroutines and Reactor under the gates, in the compatibility application (found by its component scan, so
 * that Spring AOT processes it too): suspend functions under `@LeaderOnly` and `@WithLock`, and a `Mono` and a Kotlin
 * `Flow` under `@LeaderOnly`. Each reads its fencing token from the Reactor context, which reaches a coroutine as `ReactorContext`.
 * The class and its functions are `open` for the class-based proxy (this build has no kotlin-spring plugin).
 */
@Component
open class CoroutineJobs {

    private val cancellations = AtomicInteger()

    /** How often a coroutine under the gate saw its cancellation (open: read through the proxy). */
    open fun cancelled(): Int = cancellations.get()

    /** On the leader: the lease generation, read after a suspension; skipped (null) on a follower. */
    @LeaderOnly
    open suspend fun leaderToken(): Long? {
        delay(1)
        return coroutineContext[ReactorContext]?.context?.getOrEmpty<LeaderContext>(ReactiveLeaderContext.KEY)
            ?.map { it.lease().generation() }?.orElse(null)
    }

    /** Holding the lock `coroutine-report`: its token, read after a suspension; skipped (null) while held elsewhere. */
    @WithLock(name = "coroutine-report", lockAtMostFor = "1m")
    open suspend fun lockToken(): Long? {
        delay(1)
        return coroutineContext[ReactorContext]?.context?.getOrEmpty<LockHandle>(ReactiveLockContext.KEY)
            ?.map { it.token() }?.orElse(null)
    }

    /** On the leader: the lease generation; skipped (an empty Mono) on a follower. */
    @LeaderOnly
    open fun leaderMono(): Mono<Long> = ReactiveLeaderContext.current().map { it.lease().generation() }

    /** On the leader: one element per collection; skipped (an empty Flow) on a follower. Gated as a Flux. */
    @LeaderOnly
    open fun leaderFlow(): Flow<String> = flow {
        delay(1)
        emit("ran")
    }

    /** On the leader: runs until its coroutine is cancelled (the loss of leadership cancels it). */
    @LeaderOnly
    open suspend fun untilCancelled(started: CompletableDeferred<Unit>): String {
        started.complete(Unit)
        try {
            awaitCancellation()
        } catch (e: CancellationException) {
            cancellations.incrementAndGet()
            throw e
        }
    }
}
