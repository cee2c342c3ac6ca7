package dev.hoplock.spring.aop;

import org.aopalliance.aop.Advice;
import org.springframework.aop.ClassFilter;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;

import java.lang.reflect.Method;
import java.util.Objects;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * What the advisors of hoplock's annotations ({@link LeaderOnlyAdvisor}, {@link WithLockAdvisor} and
 * {@code FencedAdvisor}) share: a plain Spring AOP advisor, so it works with any auto-proxy creator and needs no
 * AspectJ weaver, made of one pointcut (the methods the annotation applies to) and one interceptor, both fixed at
 * construction, with an order among the other advisors of a bean (lower runs first, outside).
 *
 * <p>Guarantees: {@link #getPointcut()} and {@link #getAdvice()} always return the instances given at construction.
 * The pointcut and the interceptor are not serialized.
 */
public abstract class AnnotationAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final transient Pointcut pointcut;
    private final transient Advice interceptor;

    /**
     * @param pointcut    the methods the annotation applies to (see {@link #methodsMatching})
     * @param interceptor what runs around each of their calls
     * @param order       the advisor's order
     */
    protected AnnotationAdvisor(Pointcut pointcut, Advice interceptor, int order) {
        this.pointcut = Objects.requireNonNull(pointcut, "pointcut");
        this.interceptor = Objects.requireNonNull(interceptor, "interceptor");
        setOrder(order);
    }

    /**
     * A pointcut that matches the methods {@code matches} accepts, in the classes {@code candidates} accepts (a quick
     * filter, checked first: a class it refuses has no matching method).
     */
    protected static Pointcut methodsMatching(Predicate<Class<?>> candidates, BiPredicate<Method, Class<?>> matches) {
        return new MatchingPointcut(candidates, matches);
    }

    @Override
    public final Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public final Advice getAdvice() {
        return interceptor;
    }

    private static final class MatchingPointcut extends StaticMethodMatcherPointcut {

        private final BiPredicate<Method, Class<?>> matches;

        MatchingPointcut(Predicate<Class<?>> candidates, BiPredicate<Method, Class<?>> matches) {
            this.matches = matches;
            setClassFilter(new CandidateClasses(candidates));
        }

        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            return matches.test(method, targetClass);
        }
    }

    private record CandidateClasses(Predicate<Class<?>> candidates) implements ClassFilter {
        @Override
        public boolean matches(Class<?> clazz) {
            return candidates.test(clazz);
        }
    }
}
