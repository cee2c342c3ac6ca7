package dev.hoplock.spring.internal.gate;

import org.aopalliance.aop.Advice;
import org.springframework.aop.ClassFilter;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;

import java.lang.reflect.Method;
import java.util.Objects;

/**
 * What the advisors of hoplock's annotations ({@code LeaderOnlyAdvisor}, {@code WithLockAdvisor} and
 * {@code FencedAdvisor}) share: a plain Spring AOP advisor, so it works with any auto-proxy creator and needs no
 * AspectJ weaver, made of one pointcut (the methods to which a {@link GateAttributeSource} gives an attribute, in the
 * classes it names as candidates) and one interceptor, both fixed at construction, with an order among the other
 * advisors of a bean (lower runs first, outside).
 *
 * <p>Guarantees: {@link #getPointcut()} and {@link #getAdvice()} always return the instances given at construction.
 * The pointcut and the interceptor are not serialized.
 */
public abstract class GateAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final transient Pointcut pointcut;
    private final transient Advice interceptor;

    /**
     * @param gates       what each method's annotation resolves to: the pointcut matches where it gives an attribute
     * @param interceptor what runs around each call of those methods
     * @param order       the advisor's order
     */
    protected GateAdvisor(GateAttributeSource<?> gates, Advice interceptor, int order) {
        this.pointcut = new GatedMethods(Objects.requireNonNull(gates, "gates"));
        this.interceptor = Objects.requireNonNull(interceptor, "interceptor");
        setOrder(order);
    }

    @Override
    public final Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public final Advice getAdvice() {
        return interceptor;
    }

    /** The gated methods; the candidate classes as a quick filter, checked first. */
    private static final class GatedMethods extends StaticMethodMatcherPointcut {

        private final GateAttributeSource<?> gates;

        GatedMethods(GateAttributeSource<?> gates) {
            this.gates = gates;
            setClassFilter(new CandidateClasses(gates));
        }

        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            return gates.find(method, targetClass) != null;
        }
    }

    private record CandidateClasses(GateAttributeSource<?> gates) implements ClassFilter {
        @Override
        public boolean matches(Class<?> clazz) {
            return gates.isCandidateClass(clazz);
        }
    }
}
