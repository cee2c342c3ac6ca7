package dev.hoplock.spring.lock;

import dev.hoplock.spring.internal.gate.GatedMethodValidator;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Fails the start, instead of the first call or never, when a {@code @WithLock} method cannot work as declared: an
 * invalid name template or literal name, a name template that refers to a variable the method does not have (SpEL
 * would make it null, so every call would take one lock), a duration that does not parse or is out of range, a primitive return type
 * with SKIP, a deferred reactive return type without Reactor or a Kotlin {@code suspend} function without
 * kotlinx-coroutines-reactor and kotlin-reflect (the lock would be released before the work runs; with them the lock
 * spans each subscription or coroutine), a private, static or (class-proxied) final method, or a bean that was not proxied with the
 * {@link WithLockAdvisor}. Runs after the auto-proxy creator, as each bean is initialized
 * ({@link GatedMethodValidator}).
 */
public final class WithLockMethodValidator extends GatedMethodValidator<WithLockAttribute> {

    /** How to fix what {@link #problems} finds, in the order the action names them. */
    private static final List<Fix> FIXES = List.of(
            Fix.of("refer in the name template only to the method's parameters, by name (#invoice, with the code"
                    + " compiled with -parameters) or by position (#p0)", "name template"),
            Fix.of("write the name as a lock name (segments of [A-Za-z0-9._-] separated by /), with SpEL only inside"
                    + " #{...}, for example name = \"invoice-#{#invoice.id}\"", "lock name", "SpEL"),
            Fix.of("write lockAtMostFor above zero and at most 7 days, and lockAtLeastFor between zero and"
                    + " lockAtMostFor, as 500ms, 30s, 10m, 2h, 1d or PT10M", "lockAt"),
            Fix.of("return void or an object type, or use @WithLock(whenHeld = WhenLockHeld.THROW)",
                    "no value for a skipped call"),
            ADD_REACTOR,
            ADD_COROUTINES_BRIDGE,
            MAKE_INTERCEPTABLE,
            Fix.of("keep Spring AOP auto-proxying on (spring.aop.auto=true, the default)", "did not proxy"));

    public WithLockMethodValidator(WithLockAttributeSource source) {
        super("@WithLock", source, WithLockAdvisor.class, FIXES);
    }

    @Override
    protected List<String> problems(Object bean, Class<?> targetClass, Method method, WithLockAttribute gate,
            boolean advised) {
        List<String> problems = new ArrayList<>();
        String where = gate.origin();
        if (gate.problem() != null) {
            problems.add(where + ": " + gate.problem());
        }
        addIfAny(problems, unskippable(gate.whenHeld() == WhenLockHeld.SKIP, method, where));
        addIfAny(problems, outsideTheCall(method, where));
        addIfAny(problems, notInterceptable(bean, method, where, advised,
                "@WithLock advisor, so the lock would silently not be taken"));
        return problems;
    }
}
