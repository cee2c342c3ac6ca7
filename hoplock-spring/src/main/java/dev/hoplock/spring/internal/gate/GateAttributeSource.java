package dev.hoplock.spring.internal.gate;

import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a gate's annotation on a method resolves to (its attribute: a {@code LeaderOnlyAttribute}, a
 * {@code WithLockAttribute}, a fenced resource), found once per method and target class and then cached, for the
 * advisor's pointcut, the interceptor at every call, the start-up validator and the fencing token sources alike.
 *
 * <p>Guarantees: {@link #find} resolves a method's attribute once per target class (first calls that race may each
 * resolve it, to equal answers; the first is kept) and afterwards answers from two map lookups that allocate nothing,
 * as every gated call makes one. Methods called without a target are cached under {@code Void.class}. Thread-safe.
 *
 * @param <A> the attribute a gated method has
 */
public abstract class GateAttributeSource<A> {

    private final Set<Class<? extends Annotation>> candidateAnnotations;
    private final Map<Class<?>, Map<Method, Optional<A>>> cache = new ConcurrentHashMap<>();

    /**
     * @param candidateAnnotations the annotations whose presence makes a class a candidate (see
     *                             {@link #isCandidateClass})
     */
    protected GateAttributeSource(Set<Class<? extends Annotation>> candidateAnnotations) {
        this.candidateAnnotations = Set.copyOf(candidateAnnotations);
    }

    /** Whether any method of {@code targetClass} could be gated (a cheap pre-filter). */
    public final boolean isCandidateClass(Class<?> targetClass) {
        return AnnotationUtils.isCandidateClass(targetClass, candidateAnnotations);
    }

    /**
     * The attribute of {@code method} when called on an instance of {@code targetClass} (null: the method's declaring
     * class), or null when the method is not gated.
     */
    public final @Nullable A find(Method method, @Nullable Class<?> targetClass) {
        Class<?> key = targetClass == null ? Void.class : targetClass;
        Map<Method, Optional<A>> ofClass = cache.get(key);
        if (ofClass == null) {
            ofClass = cache.computeIfAbsent(key, k -> new ConcurrentHashMap<>());
        }
        Optional<A> gate = ofClass.get(method);
        if (gate == null) {
            gate = Optional.ofNullable(compute(method, targetClass));
            ofClass.putIfAbsent(method, gate);
        }
        return gate.orElse(null);
    }

    /**
     * Every gated method found so far with its attribute: after the start-up validation, which looks at each method of
     * each bean, every gated method of the application (a method found on several target classes appears once, with
     * one of its attributes). For registering per-method meters at start; a snapshot.
     */
    public final Map<Method, A> gatedMethods() {
        Map<Method, A> found = new java.util.LinkedHashMap<>();
        for (Map<Method, Optional<A>> ofClass : cache.values()) {
            ofClass.forEach((method, gate) -> gate.ifPresent(attribute -> found.putIfAbsent(method, attribute)));
        }
        return found;
    }

    /** Resolves the attribute of {@code method} on {@code targetClass}; null when it is not gated. Called once. */
    protected abstract @Nullable A compute(Method method, @Nullable Class<?> targetClass);

    /** The class whose declarations count: the user class behind a generated subclass, else the method's own class. */
    protected static Class<?> userClass(Method method, @Nullable Class<?> targetClass) {
        return targetClass != null ? ClassUtils.getUserClass(targetClass) : method.getDeclaringClass();
    }

    /** The method that runs for {@code method} on {@code userClass}: an override or implementation, else itself. */
    protected static Method specificMethod(Method method, Class<?> userClass) {
        return AopUtils.getMostSpecificMethod(method, userClass);
    }

    /**
     * {@code type} on {@code specific} (see {@link #specificMethod}), else on {@code method} (the interface or
     * superclass method called), merged as Spring merges annotations; null when on neither.
     */
    protected static <T extends Annotation> @Nullable T findAnnotation(Method specific, Method method, Class<T> type) {
        T found = AnnotatedElementUtils.findMergedAnnotation(specific, type);
        if (found == null && specific != method) {
            found = AnnotatedElementUtils.findMergedAnnotation(method, type);
        }
        return found;
    }

    /** {@code fully.qualified.Class.method(ParamType, ...)}, for messages. */
    public static String describe(Method method) {
        Objects.requireNonNull(method, "method");
        StringBuilder text = new StringBuilder(method.getDeclaringClass().getName()).append('.')
                .append(method.getName()).append('(');
        Class<?>[] parameters = method.getParameterTypes();
        for (int i = 0; i < parameters.length; i++) {
            text.append(i == 0 ? "" : ", ").append(parameters[i].getSimpleName());
        }
        return text.append(')').toString();
    }
}
