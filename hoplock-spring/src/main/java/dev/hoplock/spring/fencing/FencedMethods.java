package dev.hoplock.spring.fencing;

import dev.hoplock.spring.annotation.Fenced;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the {@link Fenced} resource of a method: on the method itself or on a method it overrides or implements.
 * Answers are cached per method and target class, so a call pays one map lookup. Thread-safe.
 */
final class FencedMethods {

    private static final Map<MethodClassKey, Optional<String>> CACHE = new ConcurrentHashMap<>();

    private FencedMethods() {
    }

    /** The resource {@code method} fences when called on {@code targetClass}, or null when it is not fenced. */
    static @Nullable String resource(Method method, @Nullable Class<?> targetClass) {
        return CACHE.computeIfAbsent(new MethodClassKey(method, targetClass),
                key -> Optional.ofNullable(find(method, targetClass))).orElse(null);
    }

    private static @Nullable String find(Method method, @Nullable Class<?> targetClass) {
        Method specific = targetClass == null ? method : AopUtils.getMostSpecificMethod(method, targetClass);
        Fenced fenced = AnnotatedElementUtils.findMergedAnnotation(specific, Fenced.class);
        if (fenced == null && specific != method) {
            fenced = AnnotatedElementUtils.findMergedAnnotation(method, Fenced.class);
        }
        return fenced == null ? null : fenced.value();
    }

    /** "ClassName.method(..)" for messages. */
    static String describe(Method method) {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName() + "(..)";
    }
}
