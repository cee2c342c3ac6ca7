package dev.hoplock.spring.leader;

import dev.hoplock.spring.HoplockConfigurationException;
import dev.hoplock.spring.internal.gate.GatedMethodValidator;
import dev.hoplock.spring.ownership.HoplockOwnership;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.util.ReflectionUtils;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Fails the start, instead of the first call or never, when a leader-only method cannot work as declared:
 * <ul>
 *   <li>it would be skipped on non-leaders but returns a primitive value, which has no "skipped" value;</li>
 *   <li>its work would run outside the gate because the gate cannot span it here: it returns a deferred reactive
 *       type ({@code Mono}, {@code Flux}, {@code Publisher}, ...) and Reactor is not on the class path (or Spring's
 *       adapter registry does not know the type), or it is a Kotlin {@code suspend} function and
 *       kotlinx-coroutines-reactor or kotlin-reflect is missing (with them, the gate spans each subscription or
 *       coroutine);</li>
 *   <li>it is private or static (no proxy can intercept it), or final in a class-based proxy;</li>
 *   <li>the bean was not proxied with the {@code @LeaderOnly} advisor (so the gate would silently not apply), or its
 *       JDK proxy does not expose the method;</li>
 *   <li>with a key ({@code @LeaderOnly(key = ...)}): the expression does not parse, refers to a parameter the method
 *       does not have, also names an election, or no ownership group is configured;</li>
 *   <li>it names an election that is not configured, or names none while several are configured and none is named
 *       {@code default}.</li>
 * </ul>
 * The first three are checked as each bean is initialized (this post-processor runs after the auto-proxy creator:
 * {@link GatedMethodValidator}); election names once all singletons exist, and immediately for beans created later.
 */
public final class LeaderOnlyMethodValidator extends GatedMethodValidator<LeaderOnlyAttribute>
        implements SmartInitializingSingleton {

    /** How to fix what {@link #problems} finds, in the order the action names them. */
    private static final List<Fix> FIXES = List.of(
            ADD_REACTOR,
            ADD_COROUTINES_BRIDGE,
            Fix.of("return void or an object type (the skipped call returns null, Optional.empty() or an empty"
                    + " collection), or use @LeaderOnly(onNonLeader = OnNonLeader.THROW)",
                    "no value for a skipped call"),
            Fix.of("write the key as a SpEL expression over the method's parameters, for example"
                    + " @LeaderOnly(key = \"#orgId\") or key = \"#p0\"", "key expression"),
            Fix.of("remove the election from a @LeaderOnly that has a key", "names both an election"),
            MAKE_INTERCEPTABLE,
            Fix.of("keep Spring AOP auto-proxying on (spring.aop.auto=true, the default) and make sure the bean is"
                    + " not created before the post-processors (for example as a dependency of a BeanPostProcessor)",
                    "did not proxy"),
            Fix.of("set spring.aop.proxy-target-class=true, or declare the method on the interface", "JDK proxy"));

    private final ObjectProvider<HoplockElections> elections;
    private final @Nullable ObjectProvider<HoplockOwnership> ownership;
    private final KeyExpressions keys = new KeyExpressions();
    private final List<Found> awaitingElections = new ArrayList<>();
    private boolean singletonsReady;

    public LeaderOnlyMethodValidator(LeaderOnlyAttributeSource source, ObjectProvider<HoplockElections> elections) {
        this(source, elections, null);
    }

    /**
     * @param ownership the ownership group that {@code @LeaderOnly(key = ...)} gates need (null: never available)
     */
    public LeaderOnlyMethodValidator(LeaderOnlyAttributeSource source, ObjectProvider<HoplockElections> elections,
            @Nullable ObjectProvider<HoplockOwnership> ownership) {
        super("@LeaderOnly", source, LeaderOnlyAdvisor.class, FIXES);
        this.elections = Objects.requireNonNull(elections, "elections");
        this.ownership = ownership;
    }

    /** Records the gates for the check of their elections (now, or once every singleton exists). */
    @Override
    protected void accepted(Object bean, String beanName, Class<?> targetClass,
            Map<Method, LeaderOnlyAttribute> gated) {
        synchronized (this) {
            List<Found> found = gated.entrySet().stream()
                    .map(e -> new Found(beanName, e.getKey(), e.getValue())).toList();
            if (singletonsReady) {
                checkElections(found);
            } else {
                awaitingElections.addAll(found);
            }
        }
    }

    @Override
    public void afterSingletonsInstantiated() {
        List<Found> toCheck;
        synchronized (this) {
            singletonsReady = true;
            toCheck = List.copyOf(awaitingElections);
            awaitingElections.clear();
        }
        checkElections(toCheck);
    }

    private void checkElections(List<Found> found) {
        for (Found each : found) {
            if (each.gate.isKeyed() && (ownership == null || ownership.getIfAvailable() == null)) {
                throw new HoplockConfigurationException("hoplock.ownership.group", each.gate.origin() + " (bean '"
                        + each.beanName + "') runs a method only on the owner of its key, but no ownership group is"
                        + " configured.", "Set hoplock.ownership.group to the name of the group of instances that"
                        + " share the keys (for example hoplock.ownership.group=billing).");
            }
        }
        HoplockElections configured = elections.getIfAvailable();
        if (configured == null) {
            return;
        }
        for (Found each : found) {
            if (each.gate.isKeyed()) {
                continue;
            }
            try {
                configured.resolve(each.gate.election());
            } catch (IllegalArgumentException e) {
                throw new HoplockConfigurationException("hoplock.elections",
                        each.gate.origin() + " (bean '" + each.beanName + "') refers to an election that does not exist: "
                                + e.getMessage() + ".",
                        "Name a configured election in @LeaderOnly(\"...\"), or configure it under hoplock.elections.");
            }
        }
    }

    @Override
    protected List<String> problems(Object bean, Class<?> targetClass, Method method, LeaderOnlyAttribute gate,
            boolean advised) {
        List<String> problems = new ArrayList<>();
        String where = gate.origin();
        addIfAny(problems, unskippable(gate.onNonLeader() == OnNonLeader.SKIP, method, where));
        if (gate.isKeyed()) {
            if (!gate.election().isEmpty()) {
                problems.add(where + " names both an election ('" + gate.election() + "') and a key ('" + gate.key()
                        + "'): a key gate runs on the key's owner, whatever the elections");
            }
            problems.addAll(keys.problems(gate.key(), method, where));
        }
        addIfAny(problems, outsideTheCall(method, where));
        String notInterceptable = notInterceptable(bean, method, where, advised,
                "@LeaderOnly advisor, so the gate would silently not apply");
        if (notInterceptable != null) {
            problems.add(notInterceptable);
        } else if (AopUtils.isJdkDynamicProxy(bean) && !exposedByInterface(bean, method)) {
            problems.add(where + " is not declared by an interface of the bean's JDK proxy, so calls to it are not"
                    + " intercepted");
        }
        return problems;
    }

    private static boolean exposedByInterface(Object proxy, Method method) {
        for (Class<?> type : proxy.getClass().getInterfaces()) {
            if (ReflectionUtils.findMethod(type, method.getName(), method.getParameterTypes()) != null) {
                return true;
            }
        }
        return false;
    }

    private record Found(String beanName, Method method, LeaderOnlyAttribute gate) {
    }
}
