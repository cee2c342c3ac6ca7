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
 * An instance caches its answers per method and target class (one per advisor, so that nothing outlives the
 * application context), so a call pays one map lookup. Thread-safe.
 */
final class FencedMethods {

    private final Map<MethodClassKey, Optional<String>> cache = new ConcurrentHashMap<>();

    /** The resource {@code method} fences when called on {@code targetClass}, or null; cached. */
    @Nullable String cachedResource(Method method, @Nullable Class<?> targetClass) {
        return cache.computeIfAbsent(new MethodClassKey(method, targetClass),
                key -> Optional.ofNullable(resource(method, targetClass))).orElse(null);
    }

    /** The resource {@code method} fences when called on {@code targetClass}, or null when it is not fenced. */
    static @Nullable String resource(Method method, @Nullable Class<?> targetClass) {
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
