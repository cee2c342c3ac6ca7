package dev.hoplock.spring.aop;

import dev.hoplock.spring.HoplockConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.MethodIntrospector;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The checks that the start-up validators of {@code @LeaderOnly} ({@link LeaderOnlyMethodValidator}) and
 * {@code @WithLock} ({@link WithLockMethodValidator}) make alike, each with the same wording for both: finding a
 * bean's annotated methods, a primitive return type where a skipped call needs a value, a call style whose work runs
 * outside the call ({@link CallStyle}), a method that no proxy of the bean can intercept, and failing the start with
 * every problem found.
 */
final class GatedMethodChecks {

    /** The action for a method that no proxy can intercept. */
    static final String MAKE_INTERCEPTABLE = "make the method public (or protected), non-static and non-final";

    private GatedMethodChecks() {
    }

    /**
     * The methods of {@code bean}'s target class that {@code find} gives an attribute, with it; empty when the class
     * is no {@code candidate} or none is annotated.
     */
    static <A> Map<Method, A> annotatedMethods(Object bean, Predicate<Class<?>> candidate,
            BiFunction<Method, Class<?>, @Nullable A> find) {
        Class<?> targetClass = AopProxyUtils.ultimateTargetClass(bean);
        if (!candidate.test(targetClass)) {
            return Map.of();
        }
        return MethodIntrospector.selectMethods(targetClass,
                (MethodIntrospector.MetadataLookup<A>) method -> find.apply(method, targetClass));
    }

    /** Whether {@code bean} is a proxy with an advisor of type {@code advisorType}. */
    static boolean isAdvised(Object bean, Class<? extends Advisor> advisorType) {
        if (!(bean instanceof Advised advised)) {
            return false;
        }
        for (Advisor advisor : advised.getAdvisors()) {
            if (advisorType.isInstance(advisor)) {
                return true;
            }
        }
        return false;
    }

    /** The problem of a method that skips calls ({@code skips}) but returns a primitive, which has no skipped value. */
    static @Nullable String unskippable(boolean skips, Method method, String where) {
        return skips && !SkipValues.canSkip(method.getReturnType())
                ? where + " returns " + method.getReturnType() + ", which has no value for a skipped call" : null;
    }

    /**
     * The problem of a method whose work runs after its call ({@link CallStyle}): {@code deferredWhy} or
     * {@code suspendWhy} says what that does to the annotation; null for a direct call.
     */
    static @Nullable String outsideTheCall(Method method, String where, String deferredWhy, String suspendWhy) {
        return switch (CallStyle.of(method)) {
            case DEFERRED_PUBLISHER -> where + " returns " + method.getReturnType().getName()
                    + ", a deferred reactive type: " + deferredWhy;
            case KOTLIN_SUSPEND -> where + " is a Kotlin suspend function: " + suspendWhy;
            case DIRECT -> null;
        };
    }

    /**
     * The reason no proxy of {@code bean} intercepts {@code method}, or null: it is private or static, final in a
     * class-based proxy, or the bean is not {@code advised} ({@code notAdvised} then says what is lost).
     */
    static @Nullable String notInterceptable(Object bean, Method method, String where, boolean advised,
            String notAdvised) {
        int modifiers = method.getModifiers();
        if (Modifier.isPrivate(modifiers) || Modifier.isStatic(modifiers)) {
            return where + " is " + (Modifier.isPrivate(modifiers) ? "private" : "static")
                    + ", so no Spring proxy can intercept it";
        }
        if (Modifier.isFinal(modifiers) && AopUtils.isCglibProxy(bean)) {
            return where + " is final, so the class-based proxy cannot intercept it";
        }
        return advised ? null : where + " is on a bean that Spring AOP did not proxy with the " + notAdvised;
    }

    /** Adds {@code problem} to {@code problems} unless it is null. */
    static void addIfAny(List<String> problems, @Nullable String problem) {
        if (problem != null) {
            problems.add(problem);
        }
    }

    /**
     * Fails the start when there are {@code problems} on bean {@code beanName}, all of them in one message, with the
     * action {@code actionFor} makes of them.
     */
    static void failIfAny(String annotation, String beanName, List<String> problems,
            Function<List<String>, String> actionFor) {
        if (!problems.isEmpty()) {
            throw new HoplockConfigurationException(null, annotation + " cannot work on bean '" + beanName + "': "
                    + String.join("; ", problems) + ".", actionFor.apply(problems));
        }
    }

    /** {@code actions} joined by "; " as one sentence, or {@code otherwise} when there is none. */
    static String sentence(List<String> actions, String otherwise) {
        String joined = actions.isEmpty() ? otherwise : String.join("; ", actions);
        return Character.toUpperCase(joined.charAt(0)) + joined.substring(1) + ".";
    }
}
