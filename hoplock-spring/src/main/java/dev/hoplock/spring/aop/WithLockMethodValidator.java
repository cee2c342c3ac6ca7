package dev.hoplock.spring.aop;

import dev.hoplock.spring.annotation.WhenLockHeld;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.Ordered;

import java.lang.reflect.Method;
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
        Map<Method, WithLockAttribute> gated = GatedMethodChecks.annotatedMethods(bean, source::isCandidateClass,
                source::find);
        if (gated.isEmpty()) {
            return bean;
        }
        boolean advised = GatedMethodChecks.isAdvised(bean, WithLockAdvisor.class);
        List<String> problems = new ArrayList<>();
        gated.forEach((method, gate) -> problems.addAll(check(bean, method, gate, advised)));
        GatedMethodChecks.failIfAny("@WithLock", beanName, problems, WithLockMethodValidator::actionFor);
        return bean;
    }

    private static List<String> check(Object bean, Method method, WithLockAttribute gate, boolean advised) {
        List<String> problems = new ArrayList<>();
        String where = gate.origin();
        if (gate.problem() != null) {
            problems.add(where + ": " + gate.problem());
        }
        GatedMethodChecks.addIfAny(problems,
                GatedMethodChecks.unskippable(gate.whenHeld() == WhenLockHeld.SKIP, method, where));
        GatedMethodChecks.addIfAny(problems, GatedMethodChecks.outsideTheCall(method, where,
                "the lock would cover only assembling it and be released before the work runs at subscription",
                "the lock would cover only starting the coroutine and be released before it resumes"));
        GatedMethodChecks.addIfAny(problems, GatedMethodChecks.notInterceptable(bean, method, where, advised,
                "@WithLock advisor, so the lock would silently not be taken"));
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
            actions.add(GatedMethodChecks.MAKE_INTERCEPTABLE);
        }
        if (all.contains("did not proxy")) {
            actions.add("keep Spring AOP auto-proxying on (spring.aop.auto=true, the default)");
        }
        return GatedMethodChecks.sentence(actions, "fix the annotated method");
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
