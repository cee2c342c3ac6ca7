package dev.hoplock.spring.leader;

import org.springframework.core.annotation.AliasFor;


import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method only while this instance leads the named (or default) election.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>The gate reads local lease state only (no request to the store) and counts the lease as valid until the
 *       self-fencing deadline: it adds about 0.2 microseconds to a call on the leader and 0.06 on a follower
 *       (docs/BENCHMARKS.md), never a store round trip.</li>
 *   <li>While the method runs, {@link LeaderContextHolder#current()} returns the lease it runs under, whose
 *       generation is the fencing token to stamp downstream writes with.</li>
 *   <li>When the term ends during the call (lost lease, deadline, step-down, shutdown), the calling thread is
 *       interrupted once, unless {@link #interruptOnLoss()} is false; that interrupt does not leak out of the
 *       call: the flag is cleared when the method returns or throws, but only if the call's own scope set it, the
 *       flag was clear when the call began (an interrupt the caller already had, for example from
 *       {@code shutdownNow()}, stays), and no enclosing {@code @LeaderOnly} call on the thread was interrupted too
 *       (a nested call never swallows the outer call's interrupt).</li>
 *   <li>On a non-leader the method does not run: it is skipped or {@link NotLeaderException} is thrown, see
 *       {@link #onNonLeader()}. Each such call increments the {@code hoplock.leader-only.skipped} counter.</li>
 *   <li>A method returning a deferred reactive type ({@code Mono}, {@code Flux}, a {@code Publisher}, any type of
 *       Spring's {@code ReactiveAdapterRegistry}) is gated per subscription, not per call: each subscription opens
 *       its own scope (local state only), invokes the method inside it, and closes it when the subscription
 *       completes, fails or is cancelled. A subscription on a non-leader is empty (SKIP) or fails with
 *       {@link NotLeaderException} (THROW). The end of the term cancels the method's publisher and fails the
 *       subscription with {@code LeadershipLostException}; no element passes once the scope reports the loss. The
 *       scope is read from the Reactor context with {@link ReactiveLeaderContext} (the thread-bound
 *       {@link LeaderContextHolder} is empty there). A Kotlin {@code suspend} function is gated the same way, as the
 *       {@code Mono} Spring AOP runs it as (with kotlinx-coroutines-reactor and kotlin-reflect): a skipped call
 *       returns {@code null}, the loss cancels the coroutine, and the coroutine reads the scope from its
 *       {@code ReactorContext}.</li>
 *   <li>Mistakes fail the start, not the first call: a method with a primitive return type and SKIP, an unknown
 *       election, a private, static or final method, a bean that Spring AOP did not proxy, or a method whose work
 *       the gate cannot span here (a deferred reactive type without Reactor on the class path, a Kotlin
 *       {@code suspend} function without kotlinx-coroutines-reactor and kotlin-reflect), the error naming the
 *       dependency to add.</li>
 * </ul>
 *
 * <p>On a class: every public method of the class is leader-only, except those declared by {@code java.*},
 * {@code jakarta.*} or {@code org.springframework.*} types (such as {@code toString()}); an annotation on a method
 * takes precedence. Like every Spring AOP advice it applies to calls through the bean reference, not to calls a bean
 * makes to itself ({@code this.method()}). Combined with {@code @Scheduled}, a non-leader skips the run without any
 * store request.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface LeaderOnly {

    /** Alias for {@link #election()}. */
    @AliasFor("election")
    String value() default "";

    /**
     * The name of the election (a key of {@code hoplock.elections}); empty: the default election, that is the one
     * named {@code default}, or the only one configured.
     */
    @AliasFor("value")
    String election() default "";

    /** What to do on an instance that does not lead; DEFAULT: {@code hoplock.leader-only.on-non-leader}. */
    OnNonLeader onNonLeader() default OnNonLeader.DEFAULT;

    /** Whether to interrupt the calling thread when the term ends (or, with {@link #key()}, the key moves) during the call. */
    boolean interruptOnLoss() default true;

    /**
     * Per-key ownership instead of an election: a SpEL expression over the method's arguments ({@code "#orgId"},
     * {@code "#order.customerId"}, {@code "#p0"}) whose value, as text, is the key. The method then runs only on the
     * instance that acts as the key's owner in the ownership group ({@code hoplock.ownership.*}), with the key's
     * fencing token as the generation of {@link LeaderContextHolder#currentLease()} (so {@code @Fenced} uses it, with
     * the key appended to the fenced resource), and the thread is interrupted when the key moves away during the
     * call. The check reads local state only. A null key value fails the call with {@link IllegalArgumentException}.
     * {@link #election()} must stay empty with a key. Mistakes (an expression that does not parse, no ownership
     * group configured) fail the start.
     */
    String key() default "";
}
