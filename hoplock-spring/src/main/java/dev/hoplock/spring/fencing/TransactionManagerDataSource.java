package dev.hoplock.spring.fencing;

import org.jspecify.annotations.Nullable;
import org.springframework.transaction.TransactionManager;
import org.springframework.transaction.support.ResourceTransactionManager;
import org.springframework.transaction.support.TransactionSynchronizationUtils;
import org.springframework.util.ReflectionUtils;

import javax.sql.DataSource;
import java.lang.reflect.Method;

/**
 * Which {@link DataSource} a transaction manager runs its transactions on, as far as Spring's own managers say so:
 * the resource factory of a {@link ResourceTransactionManager} that is a DataSource ({@code DataSourceTransactionManager},
 * {@code JdbcTransactionManager}), else the DataSource a public {@code getDataSource()} returns
 * ({@code JpaTransactionManager}, {@code HibernateTransactionManager}: the DataSource whose connection they bind to
 * the transaction). Null for any other manager (JTA, a custom or chained manager): nothing tells which connection its
 * transactions use. spring-jdbc and spring-orm need not be on the classpath.
 */
final class TransactionManagerDataSource {

    private TransactionManagerDataSource() {
    }

    /** The DataSource {@code manager}'s transactions bind their connection for, or null when it cannot be told. */
    static @Nullable DataSource of(TransactionManager manager) {
        if (manager instanceof ResourceTransactionManager resources
                && resources.getResourceFactory() instanceof DataSource dataSource) {
            return dataSource;
        }
        Method getter = ReflectionUtils.findMethod(manager.getClass(), "getDataSource");
        if (getter == null || !DataSource.class.isAssignableFrom(getter.getReturnType())
                || !java.lang.reflect.Modifier.isPublic(getter.getModifiers())) {
            return null;
        }
        try {
            ReflectionUtils.makeAccessible(getter);
            return (DataSource) getter.invoke(manager);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Whether two DataSources are the one Spring binds a transaction's connection for (infrastructure proxies unwrapped). */
    static boolean same(DataSource a, DataSource b) {
        return TransactionSynchronizationUtils.unwrapResourceIfNecessary(a)
                == TransactionSynchronizationUtils.unwrapResourceIfNecessary(b);
    }
}
