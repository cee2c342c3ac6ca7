package dev.hoplock.spring.aop;

import dev.hoplock.core.lock.Locks;
import org.aopalliance.aop.Advice;
import org.springframework.aop.ClassFilter;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;

import java.lang.reflect.Method;
import java.util.List;
import java.util.function.Supplier;

/**
 * The Spring AOP advisor that applies {@code @WithLock}: a plain advisor like {@link LeaderOnlyAdvisor}, ordered by
 * {@code hoplock.aspect-order} (default 0, so it runs outside {@code @Transactional} and the fence check, which then
 * find the lock's token).
 */
public final class WithLockAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final transient WithLockPointcut pointcut;
    private final transient WithLockInterceptor interceptor;

    /**
     * @param source    the gates
     * @param locks     the named locks, resolved at the first call
     * @param listeners told about every call, resolved at the first call
     * @param order     the advisor's order
     */
    public WithLockAdvisor(WithLockAttributeSource source, Supplier<Locks> locks,
            Supplier<List<WithLockListener>> listeners, int order) {
        this.pointcut = new WithLockPointcut(source);
        this.interceptor = new WithLockInterceptor(source, locks, listeners);
        setOrder(order);
    }

    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return interceptor;
    }

    /** Matches the methods that {@link WithLockAttributeSource} finds annotated. */
    private static final class WithLockPointcut extends StaticMethodMatcherPointcut {

        private final WithLockAttributeSource source;

        WithLockPointcut(WithLockAttributeSource source) {
            this.source = source;
            setClassFilter(new Candidates(source));
        }

        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            return source.find(method, targetClass) != null;
        }
    }

    private record Candidates(WithLockAttributeSource source) implements ClassFilter {
        @Override
        public boolean matches(Class<?> clazz) {
            return source.isCandidateClass(clazz);
        }
    }
}
