package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.fencing.Fence;
import dev.hoplock.spring.autoconfigure.jdbc.JdbcFenceConfiguration;
import dev.hoplock.spring.fencing.FencedAdvisor;
import dev.hoplock.spring.fencing.FencedMethodValidator;
import dev.hoplock.spring.fencing.FencingTokenSource;
import dev.hoplock.spring.fencing.FirstTokenSource;
import dev.hoplock.spring.fencing.LeaderOnlyTokenSource;
import dev.hoplock.spring.fencing.WithLockTokenSource;
import dev.hoplock.spring.leader.LeaderOnlyAttributeSource;
import dev.hoplock.spring.lock.WithLockAttributeSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;

import java.util.List;

/**
 * {@code @Fenced}: the advisor that checks a method's fencing token inside its transaction, the token source
 * ({@code @WithLock}'s lock token inside a {@code @WithLock} call, else {@code @LeaderOnly}'s lease generation), the
 * start-up validator, and, with {@code hoplock-jdbc} and Spring JDBC, the {@link Fence} bean in the application's
 * database ({@link JdbcFenceConfiguration}, set by {@code hoplock.fence.*}). The validator also fails the start when a
 * {@code @Fenced} method's transaction manager does not run its transactions on that DataSource (the check would run
 * outside the method's transaction), naming the bean, the transaction manager, both DataSources and the fix.
 *
 * <p>Active when Spring's transaction support is on the classpath. Ordered after hoplock's {@code @LeaderOnly}
 * configuration and after Boot's DataSource, DataSource-transaction-manager and transaction auto-configurations (by
 * name, Boot 4's and Boot 3's classes): the fence advisor's bean is therefore registered after the
 * {@code @Transactional} advisor, and with the same (lowest) order Spring places it inside the transaction (see
 * {@link FencedAdvisor}). The {@link Fence} bean is independent of {@code hoplock.backend}: leases may live in S3 while
 * the fenced writes go to the application's database.
 */
@AutoConfiguration(after = {HoplockAutoConfiguration.class, HoplockLeaderOnlyAutoConfiguration.class,
        HoplockLocksAutoConfiguration.class}, afterName = {
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration",
        "org.springframework.boot.autoconfigure.jdbc.DataSourceTransactionManagerAutoConfiguration",
        "org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration",
        "org.springframework.boot.autoconfigure.transaction.TransactionAutoConfiguration"})
@ConditionalOnBooleanProperty(name = "hoplock.enabled", matchIfMissing = true)
@ConditionalOnClass(name = "org.springframework.transaction.support.TransactionSynchronizationManager")
@Import(JdbcFenceConfiguration.class)
public final class HoplockFencingAutoConfiguration {

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static FencingTokenSource hoplockFencingTokenSource(LeaderOnlyAttributeSource gates,
            ObjectProvider<WithLockAttributeSource> locks) {
        WithLockAttributeSource withLock = locks.getIfAvailable();
        if (withLock == null) {
            return new LeaderOnlyTokenSource(gates);
        }
        // A @WithLock call's lock token first: it is the innermost gate when a @LeaderOnly call encloses it.
        return new FirstTokenSource(List.of(new WithLockTokenSource(withLock), new LeaderOnlyTokenSource(gates)));
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static FencedAdvisor hoplockFencedAdvisor(ObjectProvider<Fence> fence, FencingTokenSource tokens) {
        return new FencedAdvisor(fence::getObject, tokens);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static FencedMethodValidator hoplockFencedMethodValidator(FencingTokenSource tokens, ObjectProvider<Fence> fence) {
        return new FencedMethodValidator(tokens, fence);
    }
}
