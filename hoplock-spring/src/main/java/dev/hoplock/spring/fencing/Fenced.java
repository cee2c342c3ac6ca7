package dev.hoplock.spring.fencing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Fences the annotated method's transaction: before the method body runs, inside the method's transaction, the
 * {@link dev.hoplock.core.fencing.Fence} records the current call's fencing token for the named resource, and a token
 * lower than one already recorded fails the call (and with it the transaction) with
 * {@link dev.hoplock.core.fencing.StaleTokenException}, naming the resource, the stale token and the newer one.
 *
 * <pre>{@code
 * @LeaderOnly
 * @Fenced("invoices")
 * @Transactional
 * public void issueInvoices() {
 *     jdbc.update("INSERT INTO invoice ...");   // commits only if no newer leader wrote 'invoices'
 * }
 * }</pre>
 *
 * <h2>Why a separate annotation, and not an attribute of {@code @LeaderOnly}</h2>
 * {@code @LeaderOnly} is a gate with its own advisor, which by default runs <em>outside</em> the transaction (so that a
 * follower never opens one). The fence check must run <em>inside</em> it, on the transaction's connection, so it is
 * its own advisor with its own position in the chain; and the token is not the gate's business: it comes from a
 * {@link dev.hoplock.spring.fencing.FencingTokenSource} (with the starter: the lock token of the innermost
 * {@code @WithLock} call on the thread, else the lease generation of the {@code @LeaderOnly} call, which for
 * {@code @LeaderOnly(key = ...)} is the key's token).
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>The check runs after the transaction has begun and before the method body, on the transaction's own
 *       connection (with the JDBC fence: the connection Spring bound to the transaction for the fence's DataSource,
 *       through {@code DataSourceUtils}, so JdbcTemplate, JdbcClient and JPA work of the same transaction share it).
 *       If the body or the commit fails, the recorded token rolls back with it. What is protected is exactly the
 *       writes the method makes in that transaction on that DataSource's database.</li>
 *   <li>The token is checked against the resource of its own token sequence: {@code value()} for an election's
 *       lease or a named lock, {@code value() + "/" + key} for {@code @LeaderOnly(key = ...)}, whose keys each have
 *       their own token. So the owner of one key is never refused because another key's owner wrote with a higher
 *       token, and a stale owner of the same key always is.</li>
 *   <li>The check names the token's holder ({@link dev.hoplock.spring.fencing.FencingTokenSource#currentHolder()}:
 *       the elector lease's owner id for {@code @LeaderOnly}, the lock's owner for {@code @WithLock}, the ownership
 *       group's process owner for {@code @LeaderOnly(key = ...)}), so a fence that records holders (the JDBC fence)
 *       refuses an <em>equal</em> token of another holder: after the lease record was deleted from outside and
 *       re-created at generation 1, a stale holder with the repeated token is refused once the new holder has
 *       written (see "Equal tokens of two holders" in {@link dev.hoplock.core.fencing.Fence}). Whichever of the two
 *       checks first keeps the resource until a higher token.</li>
 *   <li>It never passes silently: no active transaction, no transaction bound for the fence's DataSource at the
 *       moment of the check (the running transaction is another DataSource's or JTA's), no token on the thread, or a
 *       check that cannot be made (table missing, connection lost) each fail the call with
 *       {@link dev.hoplock.core.fencing.FencingException} before the body runs.</li>
 * </ul>
 *
 * <h2>What fails the start</h2>
 * A method returning a deferred reactive type ({@code Mono}, {@code Flux}, ...) or a Kotlin {@code suspend}
 * function: the fence is checked in a JDBC transaction on the calling thread, and such a method's work runs later,
 * when it is subscribed, outside that transaction (even though {@code @LeaderOnly} and {@code @WithLock} gate it per
 * subscription); read the token from the Reactor context instead
 * ({@link dev.hoplock.spring.leader.ReactiveLeaderContext}, {@link dev.hoplock.spring.lock.ReactiveLockContext}) and
 * have the store check it. A method that is not transactional (or whose propagation may run it without a transaction); a fence advisor ordered
 * outside the transaction advisor; a method with no token source (no {@code @LeaderOnly} or {@code @WithLock}), or
 * whose token advisor runs inside the fence advisor; an invalid resource name; no {@code Fence} bean; and, with the
 * starter's JDBC fence (any {@link dev.hoplock.spring.fencing.DataSourceFence}), a method whose transaction manager
 * (the one its {@code @Transactional} resolves to) does not run its transactions on the fence's DataSource
 * ({@code hoplock.fence.data-source}, default the application's DataSource), or runs them on no DataSource that can
 * be told (JTA, a chained or custom manager). That message names the bean, the method, the transaction manager, both
 * DataSources and the fix (point {@code hoplock.fence.data-source} at the transaction manager's DataSource, or run
 * the method in a transaction of the fence's DataSource). Without that refusal a pool configured
 * {@code autoCommit=false} would fence nothing: the check would run on a connection outside the transaction, nobody
 * would commit it, and the method's writes would commit unchecked.
 *
 * Like every Spring AOP advice it applies to calls through the bean reference, not to {@code this.method()}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
public @interface Fenced {

    /**
     * The fenced resource: the name of what the method writes ({@code "invoices"}), 1 to 255 characters without
     * control characters. Methods that write the same data must name the same resource.
     */
    String value();
}
