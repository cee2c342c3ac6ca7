package dev.hoplock.spring.test;

import dev.hoplock.spring.leader.LeaderOnlyAttributeSource;
import dev.hoplock.spring.lock.WithLockAttributeSource;
import org.aopalliance.aop.Advice;
import org.aopalliance.intercept.MethodInterceptor;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.core.Ordered;

import java.lang.reflect.Method;

/**
 * Counts the calls of gated methods that ran, for {@link GateCalls}: an advisor on exactly the methods the
 * {@code @LeaderOnly} and {@code @WithLock} gates gate (asked of their attribute sources), ordered innermost
 * ({@link Ordered#LOWEST_PRECEDENCE}), so that it is reached only by a call the gate let through. It changes nothing
 * about the call.
 */
final class GateCallsAdvisor extends AbstractPointcutAdvisor implements BeanFactoryAware {

    private @Nullable BeanFactory beans;
    private volatile @Nullable GateCalls calls;
    private volatile @Nullable LeaderOnlyAttributeSource leaderOnly;
    private volatile @Nullable WithLockAttributeSource withLock;

    private final Pointcut pointcut = new StaticMethodMatcherPointcut() {
        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            return isGated(method, targetClass);
        }
    };

    private final MethodInterceptor interceptor = invocation -> {
        calls().ran(invocation.getMethod());
        return invocation.proceed();
    };

    GateCallsAdvisor() {
        setOrder(Ordered.LOWEST_PRECEDENCE);
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beans = beanFactory;
    }

    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return interceptor;
    }

    private boolean isGated(Method method, Class<?> targetClass) {
        BeanFactory factory = beans;
        if (factory == null) {
            return false;
        }
        LeaderOnlyAttributeSource leaderOnly = this.leaderOnly;
        if (leaderOnly == null) {
            leaderOnly = factory.getBeanProvider(LeaderOnlyAttributeSource.class).getIfAvailable();
            this.leaderOnly = leaderOnly;
        }
        WithLockAttributeSource withLock = this.withLock;
        if (withLock == null) {
            withLock = factory.getBeanProvider(WithLockAttributeSource.class).getIfAvailable();
            this.withLock = withLock;
        }
        return (leaderOnly != null && leaderOnly.find(method, targetClass) != null)
                || (withLock != null && withLock.find(method, targetClass) != null);
    }

    private GateCalls calls() {
        GateCalls known = calls;
        if (known == null) {
            BeanFactory factory = beans;
            if (factory == null) {
                throw new IllegalStateException("the hoplock test advisor was used before its bean factory was set");
            }
            known = factory.getBean(GateCalls.class);
            calls = known;
        }
        return known;
    }
}
