package dev.hoplock.spring.fencing;

import dev.hoplock.spring.internal.gate.GateAttributeSource;
import org.jspecify.annotations.Nullable;

import java.lang.reflect.Method;
import java.util.Set;

/**
 * Finds the {@link Fenced} resource of a method: on the method itself or on a method it overrides or implements. An
 * instance caches its answers per method and target class ({@link GateAttributeSource}; one per advisor and one per
 * validator, so that nothing outlives the application context), so a call pays two map lookups. Thread-safe.
 */
final class FencedAttributeSource extends GateAttributeSource<String> {

    FencedAttributeSource() {
        super(Set.of(Fenced.class));
    }

    /** The resource {@code method} fences when called on {@code targetClass}, or null when it is not fenced. */
    @Override
    protected @Nullable String compute(Method method, @Nullable Class<?> targetClass) {
        Fenced fenced = findAnnotation(specificMethod(method, userClass(method, targetClass)), method, Fenced.class);
        return fenced == null ? null : fenced.value();
    }

    /** "ClassName.method(..)" for messages. */
    static String simpleName(Method method) {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName() + "(..)";
    }
}
