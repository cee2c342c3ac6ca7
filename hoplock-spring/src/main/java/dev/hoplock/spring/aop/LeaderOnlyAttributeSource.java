package dev.hoplock.spring.aop;

import dev.hoplock.spring.annotation.LeaderOnly;
import dev.hoplock.spring.annotation.OnNonLeader;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.Schedules;
import org.springframework.util.ClassUtils;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decides whether a method is leader-only and how, in this order of precedence:
 * <ol>
 *   <li>{@code @LeaderOnly} on the method (or on a method it overrides or implements);</li>
 *   <li>{@code @LeaderOnly} on the target class (or a superclass), for its public methods not declared by
 *       {@code java.*}, {@code javax.*}, {@code jakarta.*}, {@code kotlin.*} or {@code org.springframework.*} types;</li>
 *   <li>{@code @Scheduled} (or {@code @Schedules}) on the method when {@code hoplock.scheduling.leader-only-all} is
 *       true: default election, SKIP, interrupt on loss.</li>
 * </ol>
 * {@code equals}, {@code hashCode} and {@code toString} are never leader-only. Results are cached per method and
 * target class. Thread-safe.
 */
public final class LeaderOnlyAttributeSource {

    private static final Set<Class<? extends java.lang.annotation.Annotation>> CANDIDATE_ANNOTATIONS =
            Set.of(LeaderOnly.class, Scheduled.class, Schedules.class);
    private static final String[] FRAMEWORK_PACKAGES = {"java.", "javax.", "jakarta.", "kotlin.", "org.springframework."};

    private final OnNonLeader defaultMode;
    private final boolean leaderOnlyAll;
    /**
     * Gates by target class (methods called without a target: {@code Void.class}), then by method: two lookups that
     * allocate nothing, as every gated call makes one.
     */
    private final Map<Class<?>, Map<Method, Optional<LeaderOnlyAttribute>>> cache = new ConcurrentHashMap<>();

    /**
     * @param defaultMode   what DEFAULT means ({@code hoplock.leader-only.on-non-leader}): SKIP or THROW
     * @param leaderOnlyAll {@code hoplock.scheduling.leader-only-all}
     */
    public LeaderOnlyAttributeSource(OnNonLeader defaultMode, boolean leaderOnlyAll) {
        Objects.requireNonNull(defaultMode, "defaultMode");
        this.defaultMode = defaultMode == OnNonLeader.DEFAULT ? OnNonLeader.SKIP : defaultMode;
        this.leaderOnlyAll = leaderOnlyAll;
    }

    /** Whether any method of {@code targetClass} could be leader-only (a cheap pre-filter). */
    public boolean isCandidateClass(Class<?> targetClass) {
        return AnnotationUtils.isCandidateClass(targetClass, CANDIDATE_ANNOTATIONS);
    }

    /**
     * The gate of {@code method} when called on an instance of {@code targetClass} (null: the method's declaring
     * class), or null when it is not leader-only.
     */
    public @Nullable LeaderOnlyAttribute find(Method method, @Nullable Class<?> targetClass) {
        Map<Method, Optional<LeaderOnlyAttribute>> ofClass = cache.get(targetClass == null ? Void.class : targetClass);
        if (ofClass == null) {
            ofClass = cache.computeIfAbsent(targetClass == null ? Void.class : targetClass,
                    key -> new ConcurrentHashMap<>());
        }
        Optional<LeaderOnlyAttribute> gate = ofClass.get(method);
        if (gate == null) {
            gate = Optional.ofNullable(compute(method, targetClass));
            ofClass.putIfAbsent(method, gate);
        }
        return gate.orElse(null);
    }

    private @Nullable LeaderOnlyAttribute compute(Method method, @Nullable Class<?> targetClass) {
        if (method.getDeclaringClass() == Object.class || AopUtils.isEqualsMethod(method)
                || AopUtils.isHashCodeMethod(method) || AopUtils.isToStringMethod(method)) {
            return null;
        }
        Class<?> userClass = targetClass != null ? ClassUtils.getUserClass(targetClass) : method.getDeclaringClass();
        Method specific = AopUtils.getMostSpecificMethod(method, userClass);
        LeaderOnly onMethod = AnnotatedElementUtils.findMergedAnnotation(specific, LeaderOnly.class);
        if (onMethod == null && specific != method) {
            onMethod = AnnotatedElementUtils.findMergedAnnotation(method, LeaderOnly.class);
        }
        if (onMethod != null) {
            return attribute(onMethod, "@LeaderOnly on " + describe(specific));
        }
        if (Modifier.isPublic(specific.getModifiers()) && !Modifier.isStatic(specific.getModifiers())
                && !isFrameworkDeclared(specific)) {
            LeaderOnly onClass = AnnotatedElementUtils.findMergedAnnotation(userClass, LeaderOnly.class);
            if (onClass != null) {
                return attribute(onClass, "@LeaderOnly on class " + userClass.getName());
            }
        }
        if (leaderOnlyAll && isScheduled(specific)) {
            return new LeaderOnlyAttribute("", OnNonLeader.SKIP, true,
                    "hoplock.scheduling.leader-only-all=true and @Scheduled on " + describe(specific));
        }
        return null;
    }

    private LeaderOnlyAttribute attribute(LeaderOnly annotation, String origin) {
        OnNonLeader mode = annotation.onNonLeader() == OnNonLeader.DEFAULT ? defaultMode : annotation.onNonLeader();
        return new LeaderOnlyAttribute(annotation.election(), mode, annotation.interruptOnLoss(), origin,
                annotation.key().strip());
    }

    private static boolean isScheduled(Method method) {
        return AnnotatedElementUtils.hasAnnotation(method, Scheduled.class)
                || AnnotatedElementUtils.hasAnnotation(method, Schedules.class);
    }

    private static boolean isFrameworkDeclared(Method method) {
        String name = method.getDeclaringClass().getName();
        for (String prefix : FRAMEWORK_PACKAGES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** {@code SimpleClassName.method(ParamType, ...)}. */
    static String describe(Method method) {
        StringBuilder text = new StringBuilder(method.getDeclaringClass().getName()).append('.')
                .append(method.getName()).append('(');
        Class<?>[] parameters = method.getParameterTypes();
        for (int i = 0; i < parameters.length; i++) {
            text.append(i == 0 ? "" : ", ").append(parameters[i].getSimpleName());
        }
        return text.append(')').toString();
    }
}
