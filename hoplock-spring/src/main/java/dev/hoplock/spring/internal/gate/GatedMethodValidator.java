package dev.hoplock.spring.internal.gate;

import dev.hoplock.spring.HoplockConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.Ordered;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The start-up validator of a gate's annotation, as one skeleton: as each bean is initialized (after the auto-proxy
 * creator, so the bean is the proxy, with its advisor chain), it finds the bean's gated methods through the gate's
 * {@link GateAttributeSource}, asks the gate what is wrong with each ({@link #problems}), and fails the start with
 * every problem of the bean in one {@link HoplockConfigurationException}:
 * {@code "<annotation> cannot work on bean '<name>': <problems>."}, with the action: the gate's {@link Fix fixes} whose
 * problems occur, in the gate's order, as one sentence. A bean without problems is handed to {@link #accepted}. The
 * checks that gates make alike, with the same wording for each, are here too: a primitive return type where a skipped
 * call needs a value ({@link #unskippable}), a method whose work runs after its call and that the gate cannot span
 * here ({@link #outsideTheCall}), a
 * method that no proxy of the bean can intercept ({@link #notInterceptable}).
 *
 * @param <A> the attribute of a gated method
 */
public abstract class GatedMethodValidator<A> implements BeanPostProcessor, Ordered {

    /** The fix for a method that no proxy can intercept ({@link #notInterceptable}). */
    protected static final Fix MAKE_INTERCEPTABLE = Fix.of(
            "make the method public (or protected), non-static and non-final", "private", "static", "final");

    private final String annotation;
    private final GateAttributeSource<A> gates;
    private final Class<? extends Advisor> advisorType;
    private final List<Fix> fixes;

    /**
     * @param annotation  the gate's annotation, for messages, for example {@code "@LeaderOnly"}
     * @param gates       what each method's annotation resolves to
     * @param advisorType the gate's advisor, which a bean with gated methods must be proxied with
     * @param fixes       how to fix the gate's problems, in the order the action names them
     */
    protected GatedMethodValidator(String annotation, GateAttributeSource<A> gates,
            Class<? extends Advisor> advisorType, List<Fix> fixes) {
        this.annotation = Objects.requireNonNull(annotation, "annotation");
        this.gates = Objects.requireNonNull(gates, "gates");
        this.advisorType = Objects.requireNonNull(advisorType, "advisorType");
        this.fixes = List.copyOf(fixes);
    }

    /**
     * How to fix a kind of problem: {@code action}, named when any problem of the bean contains one of
     * {@code mentions}.
     *
     * @param action   what to do, as a clause of the action sentence (lower case, no final stop)
     * @param mentions words that the problems it fixes contain
     */
    protected record Fix(String action, List<String> mentions) {

        /** A fix for the problems that mention any of {@code mentions}. */
        public static Fix of(String action, String... mentions) {
            return new Fix(action, List.of(mentions));
        }

        boolean fixesAny(String problems) {
            for (String mention : mentions) {
                if (problems.contains(mention)) {
                    return true;
                }
            }
            return false;
        }
    }

    @Override
    public final Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> targetClass = AopProxyUtils.ultimateTargetClass(bean);
        if (!gates.isCandidateClass(targetClass)) {
            return bean;
        }
        Map<Method, A> gated = MethodIntrospector.selectMethods(targetClass,
                (MethodIntrospector.MetadataLookup<A>) method -> gates.find(method, targetClass));
        if (gated.isEmpty()) {
            return bean;
        }
        boolean advised = isAdvised(bean);
        List<String> problems = new ArrayList<>();
        gated.forEach((method, gate) -> problems.addAll(problems(bean, targetClass, method, gate, advised)));
        if (!problems.isEmpty()) {
            throw new HoplockConfigurationException(null, annotation + " cannot work on bean '" + beanName + "': "
                    + String.join("; ", problems) + ".", actionFor(problems));
        }
        accepted(bean, beanName, targetClass, gated);
        return bean;
    }

    /**
     * What is wrong with gated {@code method} of {@code bean} (whose class is {@code targetClass}); empty when it can
     * work.
     *
     * @param advised whether the bean is a proxy with the gate's advisor
     */
    protected abstract List<String> problems(Object bean, Class<?> targetClass, Method method, A gate,
            boolean advised);

    /** How to fix {@code problems}: the fixes they call for, in the gate's order, as one sentence. */
    private String actionFor(List<String> problems) {
        String all = String.join(" ", problems);
        List<String> actions = new ArrayList<>();
        for (Fix fix : fixes) {
            if (fix.fixesAny(all)) {
                actions.add(fix.action());
            }
        }
        String joined = actions.isEmpty() ? "fix the annotated method" : String.join("; ", actions);
        return Character.toUpperCase(joined.charAt(0)) + joined.substring(1) + ".";
    }

    /** Called with a bean whose gated methods all passed; nothing by default. */
    protected void accepted(Object bean, String beanName, Class<?> targetClass, Map<Method, A> gated) {
    }

    /** Runs after the auto-proxy creator. */
    @Override
    public final int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    private boolean isAdvised(Object bean) {
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
    protected static @Nullable String unskippable(boolean skips, Method method, String where) {
        return skips && !SkipValues.canSkip(method.getReturnType())
                ? where + " returns " + method.getReturnType() + ", which has no value for a skipped call" : null;
    }

    /** The fix for a deferred method without Reactor ({@link #outsideTheCall}). */
    protected static final Fix ADD_REACTOR = Fix.of("add io.projectreactor:reactor-core to the application (the"
            + " gate then spans each subscription), or return a type that Spring's ReactiveAdapterRegistry adapts"
            + " (Mono, Flux, Publisher, ...)", "cannot span its subscription");

    /** The fix for a suspend function without Spring AOP's coroutine bridge ({@link #outsideTheCall}). */
    protected static final Fix ADD_COROUTINES_BRIDGE = Fix.of("add org.jetbrains.kotlinx:kotlinx-coroutines-reactor"
            + " and org.jetbrains.kotlin:kotlin-reflect to the application (Spring AOP then runs the coroutine as a"
            + " Mono, whose subscription the gate spans)", "cannot span the coroutine");

    /**
     * The problem of a method whose work runs after its call ({@link CallStyle}) when the gate cannot span it here:
     * a deferred type without Reactor (or one Spring's adapter registry does not know), a Kotlin suspend function
     * without kotlinx-coroutines-reactor and kotlin-reflect; null for a direct call and for a deferred call the gate
     * spans ({@link DeferredGate}).
     */
    protected static @Nullable String outsideTheCall(Method method, String where) {
        CallStyle style = CallStyle.of(method);
        if (style.gateable(method)) {
            return null;
        }
        return switch (style) {
            case DEFERRED_PUBLISHER -> where + " returns " + method.getReturnType().getName()
                    + ", a deferred reactive type, and " + (CallStyle.REACTOR_PRESENT
                    ? "Spring's ReactiveAdapterRegistry has no adapter for it"
                    : "Reactor (io.projectreactor:reactor-core) is not on the class path")
                    + ", so the gate cannot span its subscription (it would cover only assembling it)";
            case KOTLIN_SUSPEND -> where + " is a Kotlin suspend function, and " + missingCoroutinesBridge()
                    + " not on the class path, so the gate cannot span the coroutine (it would cover only starting"
                    + " it, which returns at its first suspension)";
            case DIRECT -> null;
        };
    }

    private static String missingCoroutinesBridge() {
        List<String> missing = new ArrayList<>();
        ClassLoader loader = GatedMethodValidator.class.getClassLoader();
        if (!CallStyle.REACTOR_PRESENT) {
            missing.add("io.projectreactor:reactor-core");
        }
        if (!org.springframework.util.ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt", loader)) {
            missing.add("org.jetbrains.kotlinx:kotlinx-coroutines-reactor");
        }
        if (!org.springframework.util.ClassUtils.isPresent("kotlin.reflect.full.KClasses", loader)) {
            missing.add("org.jetbrains.kotlin:kotlin-reflect");
        }
        return String.join(" and ", missing) + (missing.size() == 1 ? " is" : " are");
    }

    /**
     * The reason no proxy of {@code bean} intercepts {@code method}, or null: it is private or static, final in a
     * class-based proxy, or the bean is not {@code advised} ({@code notAdvised} then says what is lost).
     */
    protected static @Nullable String notInterceptable(Object bean, Method method, String where, boolean advised,
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
    protected static void addIfAny(List<String> problems, @Nullable String problem) {
        if (problem != null) {
            problems.add(problem);
        }
    }
}
