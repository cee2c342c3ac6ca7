package dev.hoplock.spring.lock;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method only if this instance can take the named lock, and releases the lock after the call: "at
 * most one of us runs this, now". The lock lives in the same store as the elections ({@code hoplock.backend}).
 *
 * <pre>{@code
 * @Scheduled(cron = "0 0 * * * *")
 * @WithLock(name = "hourly-report", lockAtMostFor = "10m", lockAtLeastFor = "30s")
 * public void hourlyReport() { ... }
 *
 * @WithLock(name = "invoice-#{#invoice.id}", lockAtMostFor = "PT2M", whenHeld = WhenLockHeld.THROW)
 * public void send(Invoice invoice) { ... }
 * }</pre>
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>The method runs only after one acquisition of the lock (one store read and one conditional write, at most),
 *       with a TTL of {@link #lockAtMostFor()}: its validity is judged on the local monotonic clock from before the
 *       write, and another owner takes the lock over only after it has seen the record unchanged for a whole TTL, or
 *       at once after the release.</li>
 *   <li>While it runs, {@code LockContextHolder.current()} returns the lock, whose {@code token()} is the fencing
 *       token (strictly increasing per lock name); a {@code @Fenced} method called inside uses it.</li>
 *   <li>No keep-alive: the lock ends at {@link #lockAtMostFor()} (minus the safety margin) even if the call still
 *       runs; then the calling thread is interrupted once (unless {@link #interruptOnLoss()} is false) and the
 *       {@code hoplock.locks.lost} counter counts it. Choose {@code lockAtMostFor} well above the longest run.</li>
 *   <li>After the call the lock is released (another instance may take it at once), unless
 *       {@link #lockAtLeastFor()} has not passed since the acquisition: then the record is rewritten to expire at
 *       acquisition + {@code lockAtLeastFor} and left to expire.</li>
 *   <li>When the lock is held elsewhere (another instance, or a call of this instance still running or still in its
 *       minimum hold), the method does not run: it is skipped or {@code LockNotTakenException} is thrown, see
 *       {@link #whenHeld()}. A store that gives no usable answer counts as held: the method does not run.</li>
 *   <li><b>Fairness: none by default.</b> Of several instances calling at the same cadence, the first whose write lands
 *       wins, so the instance whose calls come first in each period can run every time and the others never; and the
 *       instance that ran keeps its record through {@link #lockAtLeastFor()} and takes it back at its next call at
 *       once, while the others must observe it for a whole {@link #lockAtMostFor()} first (they never trust its
 *       wall-clock expiry). We measured 100, 0 and 0 runs of 100 calls each for three instances
 *       ({@code WithLockFairnessTest}). {@link #fairTurn()} takes turns instead (rule L7): 25, 25 and 25 in the same
 *       test, at the cost of a call that does not run now and then, also for an instance alone (about one per ten
 *       turn windows, once it found that nobody took its turn).</li>
 *   <li>Mistakes fail the start, not the first call: a name that is not a valid SpEL template or (without
 *       expressions) not a valid lock name, a duration that does not parse, a zero or longer-than-7-days
 *       {@code lockAtMostFor}, a {@code lockAtLeastFor} above it, a negative or unit-less {@code fairTurn}, a
 *       primitive return type with SKIP, a deferred
 *       reactive return type without Reactor on the class path or a Kotlin {@code suspend} function without
 *       kotlinx-coroutines-reactor and kotlin-reflect (the work would run outside the lock; the error names the
 *       dependency to add), a private, static or final method, or a bean that Spring AOP did not proxy.</li>
 *   <li>A method returning a deferred reactive type ({@code Mono}, {@code Flux}, any type of Spring's
 *       {@code ReactiveAdapterRegistry}), or a Kotlin {@code suspend} function, holds the lock per subscription: the
 *       checks above and one acquisition ({@code Locks.tryAcquireAsync}: the subscriber's thread never waits for the
 *       store) at subscription, the method invoked holding it, the lock released ({@code releaseAsync}, or kept
 *       until {@code lockAtLeastFor}) when the subscription completes, fails or is cancelled; a completion or an
 *       error reaches the subscriber only after that. A refused subscription is empty (or {@code null} for a
 *       coroutine) with SKIP, an error signal with THROW. The loss of the lock cancels the method's publisher and
 *       fails the subscription with {@code LockLostException}. The lock is read from the Reactor context with
 *       {@link ReactiveLockContext} ({@code LockContextHolder} is empty there).</li>
 * </ul>
 *
 * <p>Like every Spring AOP advice it applies to calls through the bean reference, not to {@code this.method()}.
 * Each call makes store requests (acquire and release); a job that should run on one instance all the time is
 * cheaper with {@link dev.hoplock.spring.leader.LeaderOnly}, which makes none per call.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface WithLock {

    /**
     * The lock's name: a SpEL template, evaluated at each call. Text outside {@code #{...}} is literal; inside, the
     * method's arguments are {@code #name} (with {@code -parameters}), {@code #p0}/{@code #a0}, and {@code #root.method}
     * and {@code #root.target} are available; {@code ${...}} placeholders are resolved first. The result must be a
     * valid lock name: segments of {@code [A-Za-z0-9._-]} separated by {@code /}.
     */
    String name();

    /**
     * The lock's TTL and the most the call may run under it: a duration such as {@code 10m}, {@code 30s},
     * {@code 500ms}, {@code 2h}, {@code 1d} or ISO-8601 {@code PT10M}; above zero and at most 7 days.
     */
    String lockAtMostFor();

    /**
     * The least time the lock stays taken after its acquisition, even if the call ends earlier (same format; default
     * {@code 0}: released at once). At most {@link #lockAtMostFor()}.
     */
    String lockAtLeastFor() default "0s";

    /** What to do when the lock is held elsewhere; DEFAULT: {@code hoplock.locks.when-held} (itself SKIP). */
    WhenLockHeld whenHeld() default WhenLockHeld.DEFAULT;

    /** Whether to interrupt the calling thread when the lock ends during the call. */
    boolean interruptOnLoss() default true;

    /**
     * The fair mode's turn window (same format, with a unit; {@code 0s}: the default mode, which promises no
     * fairness); empty (the default): {@code hoplock.locks.fair-turn} (itself {@code 0s}). With a window, an instance
     * whose hold of the lock ended less than the window ago lets the first call that finds the lock free in a given
     * version go by (releasing its record first if it left it to expire under {@link #lockAtLeastFor()}): that call
     * does not run, so that another instance calling meanwhile runs; the next call that finds the same version runs,
     * and an instance whose turn nobody took yields no more for ten windows unless another instance runs meanwhile.
     * Choose about the interval of the calls times the number of instances less one. See "Fairness" above.
     */
    String fairTurn() default "";
}
