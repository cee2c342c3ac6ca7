package dev.hoplock.spring.aop;

import dev.hoplock.spring.HoplockConfigurationException;
import dev.hoplock.spring.annotation.WhenLockHeld;
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
 * Fails the start, instead of the first call or never, when a {@code @WithLock} method cannot work as declared: an
 * invalid name template or literal name, a duration that does not parse or is out of range, a primitive return type
 * with SKIP, a deferred reactive return type or a Kotlin {@code suspend} function (the work would run after the
 * release, see {@link CallStyle}), a private, static or (class-proxied) final method, or a bean that was not proxied
 * with the {@link WithLockAdvisor}. Runs after the auto-proxy creator, as each bean is initialized.
 */
public final class WithLockMethodValidator implements BeanPostProcessor, Ordered {

    private final WithLockAttributeSource source;

    public WithLockMethodValidator(WithLockAttributeSource source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> targetClass = AopProxyUtils.ultimateTargetClass(bean);
        if (!source.isCandidateClass(targetClass)) {
            return bean;
        }
        Map<Method, WithLockAttribute> gated = MethodIntrospector.selectMethods(targetClass,
                (MethodIntrospector.MetadataLookup<WithLockAttribute>) method -> source.find(method, targetClass));
        if (gated.isEmpty()) {
            return bean;
        }
        boolean advised = isAdvised(bean);
        List<String> problems = new ArrayList<>();
        gated.forEach((method, gate) -> problems.addAll(check(bean, method, gate, advised)));
        if (!problems.isEmpty()) {
            throw new HoplockConfigurationException(null, "@WithLock cannot work on bean '" + beanName + "': "
                    + String.join("; ", problems) + ".", actionFor(problems));
        }
        return bean;
    }

    private static List<String> check(Object bean, Method method, WithLockAttribute gate, boolean advised) {
        List<String> problems = new ArrayList<>();
        String where = gate.origin();
        if (gate.problem() != null) {
            problems.add(where + ": " + gate.problem());
        }
        if (gate.whenHeld() == WhenLockHeld.SKIP && !SkipValues.canSkip(method.getReturnType())) {
            problems.add(where + " returns " + method.getReturnType() + ", which has no value for a skipped call");
        }
        switch (CallStyle.of(method)) {
            case DEFERRED_PUBLISHER -> problems.add(where + " returns " + method.getReturnType().getName()
                    + ", a deferred reactive type: the lock would cover only assembling it and be released before"
                    + " the work runs at subscription");
            case KOTLIN_SUSPEND -> problems.add(where + " is a Kotlin suspend function: the lock would cover only"
                    + " starting the coroutine and be released before it resumes");
            case DIRECT -> {
            }
        }
        int modifiers = method.getModifiers();
        if (Modifier.isPrivate(modifiers) || Modifier.isStatic(modifiers)) {
            problems.add(where + " is " + (Modifier.isPrivate(modifiers) ? "private" : "static")
                    + ", so no Spring proxy can intercept it");
        } else if (Modifier.isFinal(modifiers) && AopUtils.isCglibProxy(bean)) {
            problems.add(where + " is final, so the class-based proxy cannot intercept it");
        } else if (!advised) {
            problems.add(where + " is on a bean that Spring AOP did not proxy with the @WithLock advisor, so the"
                    + " lock would silently not be taken");
        }
        return problems;
    }

    private static String actionFor(List<String> problems) {
        String all = String.join(" ", problems);
        List<String> actions = new ArrayList<>();
        if (all.contains("lock name") || all.contains("SpEL")) {
            actions.add("write the name as a lock name (segments of [A-Za-z0-9._-] separated by /), with SpEL only"
                    + " inside #{...}, for example name = \"invoice-#{#invoice.id}\"");
        }
        if (all.contains("lockAt")) {
            actions.add("write lockAtMostFor above zero and at most 7 days, and lockAtLeastFor between zero and"
                    + " lockAtMostFor, as 500ms, 30s, 10m, 2h, 1d or PT10M");
        }
        if (all.contains("no value for a skipped call")) {
            actions.add("return void or an object type, or use @WithLock(whenHeld = WhenLockHeld.THROW)");
        }
        if (all.contains("deferred reactive") || all.contains("suspend")) {
            actions.add("put @WithLock on a method that blocks until the work is done, or take the lock yourself with"
                    + " the Locks bean (tryAcquireAsync, releaseAsync)");
        }
        if (all.contains("private") || all.contains("static") || all.contains("final")) {
            actions.add("make the method public (or protected), non-static and non-final");
        }
        if (all.contains("did not proxy")) {
            actions.add("keep Spring AOP auto-proxying on (spring.aop.auto=true, the default)");
        }
        String joined = actions.isEmpty() ? "fix the annotated method" : String.join("; ", actions);
        return Character.toUpperCase(joined.charAt(0)) + joined.substring(1) + ".";
    }

    private static boolean isAdvised(Object bean) {
        if (!(bean instanceof Advised advised)) {
            return false;
        }
        for (Advisor advisor : advised.getAdvisors()) {
            if (advisor instanceof WithLockAdvisor) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
