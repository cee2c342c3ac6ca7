package dev.hoplock.spring.fencing;

import dev.hoplock.core.fencing.Fence;
import org.aopalliance.aop.Advice;
import org.springframework.aop.ClassFilter;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotationUtils;

import java.lang.reflect.Method;
import java.util.function.Supplier;

/**
 * The Spring AOP advisor behind {@link dev.hoplock.spring.annotation.Fenced}.
 *
 * <h2>Order: inside the transaction</h2>
 * Its order is {@link Ordered#LOWEST_PRECEDENCE}, the same as the {@code @Transactional} advisor's default, and it is
 * registered after that advisor (the auto-configuration comes after Boot's transaction auto-configuration, and an
 * application's own {@code @EnableTransactionManagement} is registered before any auto-configuration); Spring sorts
 * advisors of equal order by registration, so the chain of a fenced method is:
 * <pre>
 *   @LeaderOnly (order 0: the gate, opens the leader scope, pushes the token)
 *     @Transactional (lowest precedence: begins the transaction, binds its connection)
 *       @Fenced (lowest precedence, registered later: checks the token on that connection)
 *         the method body
 * </pre>
 * The chain of every fenced bean is checked at start-up ({@link FencedMethodValidator}): a transaction advisor after
 * this one, or a token advisor after this one, fails the start. At call time the interceptor refuses to run without
 * an active transaction as a second line.
 */
public final class FencedAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final transient FencedMethods methods = new FencedMethods();
    private final transient Pointcut pointcut = new FencedPointcut(methods);
    private final transient FencedInterceptor interceptor;

    /**
     * @param fence  the fence, resolved at the first call
     * @param tokens where the token of a call comes from
     */
    public FencedAdvisor(Supplier<Fence> fence, FencingTokenSource tokens) {
        this.interceptor = new FencedInterceptor(fence, tokens, methods);
        setOrder(Ordered.LOWEST_PRECEDENCE);
    }

    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return interceptor;
    }

    private static final class FencedPointcut extends StaticMethodMatcherPointcut {

        private final FencedMethods methods;

        FencedPointcut(FencedMethods methods) {
            this.methods = methods;
            setClassFilter(new ClassFilter() {
                @Override
                public boolean matches(Class<?> clazz) {
                    return AnnotationUtils.isCandidateClass(clazz, dev.hoplock.spring.annotation.Fenced.class);
                }
            });
        }

        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            return methods.cachedResource(method, targetClass) != null;
        }
    }
}
