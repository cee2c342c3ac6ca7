package dev.hoplock.spring.annotation;

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
 * {@link dev.hoplock.spring.fencing.FencingTokenSource} (today the lease of the {@code @LeaderOnly} call on the
 * thread; per-key ownership and named locks can supply theirs later, with no change to this annotation).
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>The check runs after the transaction has begun and before the method body, on the transaction's own
 *       connection (with the JDBC fence: Spring's {@code DataSourceUtils}, so JdbcTemplate, JdbcClient and JPA work of
 *       the same transaction share it). If the body or the commit fails, the recorded token rolls back with it.</li>
 *   <li>It never passes silently: no active transaction, no token on the thread, or a check that cannot be made
 *       (table missing, connection lost) each fail the call with {@link dev.hoplock.core.fencing.FencingException}
 *       before the body runs.</li>
 *   <li>Mistakes fail the start: a method that is not transactional (or whose propagation may run it without a
 *       transaction), a fence advisor ordered outside the transaction advisor, a method with no token source (no
 *       {@code @LeaderOnly}), an invalid resource name, or no {@code Fence} bean.</li>
 * </ul>
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
