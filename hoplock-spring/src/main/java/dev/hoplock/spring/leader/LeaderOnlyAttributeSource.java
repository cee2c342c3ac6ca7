package dev.hoplock.spring.leader;

import dev.hoplock.spring.internal.gate.GateAttributeSource;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.Schedules;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Objects;
import java.util.Set;

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
 * target class ({@link GateAttributeSource}). Thread-safe.
 */
public final class LeaderOnlyAttributeSource extends GateAttributeSource<LeaderOnlyAttribute> {

    private static final String[] FRAMEWORK_PACKAGES = {"java.", "javax.", "jakarta.", "kotlin.", "org.springframework."};

    private final OnNonLeader defaultMode;
    private final boolean leaderOnlyAll;

    /**
     * @param defaultMode   what DEFAULT means ({@code hoplock.leader-only.on-non-leader}): SKIP or THROW
     * @param leaderOnlyAll {@code hoplock.scheduling.leader-only-all}
     */
    public LeaderOnlyAttributeSource(OnNonLeader defaultMode, boolean leaderOnlyAll) {
        super(Set.of(LeaderOnly.class, Scheduled.class, Schedules.class));
        Objects.requireNonNull(defaultMode, "defaultMode");
        this.defaultMode = defaultMode == OnNonLeader.DEFAULT ? OnNonLeader.SKIP : defaultMode;
        this.leaderOnlyAll = leaderOnlyAll;
    }

    @Override
    protected @Nullable LeaderOnlyAttribute compute(Method method, @Nullable Class<?> targetClass) {
        if (method.getDeclaringClass() == Object.class || AopUtils.isEqualsMethod(method)
                || AopUtils.isHashCodeMethod(method) || AopUtils.isToStringMethod(method)) {
            return null;
        }
        Class<?> userClass = userClass(method, targetClass);
        Method specific = specificMethod(method, userClass);
        LeaderOnly onMethod = findAnnotation(specific, method, LeaderOnly.class);
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
}
