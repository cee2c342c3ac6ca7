package dev.hoplock.spring.fencing;

import dev.hoplock.core.fencing.Fence;

import javax.sql.DataSource;

/**
 * A {@link Fence} whose check runs on the connection of the Spring transaction of one {@link DataSource} (the starter's
 * {@link TransactionalJdbcFence}). Naming the DataSource lets the start-up validator ({@link FencedMethodValidator})
 * check that the transaction manager of every {@code @Fenced} method runs its transactions on that DataSource: only
 * then are the fence row and the method's writes in one transaction.
 *
 * <p>Guarantees an implementation must give: {@link #check} runs on the connection Spring bound to the current
 * transaction for {@link #dataSource()}, and refuses with {@link dev.hoplock.core.fencing.FencingException} when
 * no transaction of that DataSource is bound at the moment of the check.
 */
public interface DataSourceFence extends Fence {

    /** The DataSource whose transactions the check runs in (unwrapped from Spring's transaction-aware proxy). */
    DataSource dataSource();
}
