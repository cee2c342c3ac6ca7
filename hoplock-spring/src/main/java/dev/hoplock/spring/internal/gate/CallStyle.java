package dev.hoplock.spring.internal.gate;

import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;

/**
 * When a method's work runs relative to its call, which decides whether a gate (a scope that spans the call on the
 * calling thread: {@code @LeaderOnly}'s leader scope, {@code @WithLock}'s lock) covers the work.
 *
 * <p>Guarantees: {@link #of(Method)} never needs Reactor, RxJava or Kotlin on the classpath: deferred types are
 * recognised by Spring's {@link ReactiveAdapterRegistry} (which knows the libraries that are present) and, as a
 * fallback, by class name; a Kotlin {@code suspend} function by its last parameter, {@code kotlin.coroutines.Continuation},
 * which is how the Kotlin compiler declares every suspend function to the JVM.
 *
 * <p>Only {@link #DIRECT} methods are gated today; the start-up validators refuse the others
 * ({@link GatedMethodValidator#outsideTheCall}).
 * A gate for another style (one that spans a subscription, or a coroutine) replaces that refusal for its style.
 */
enum CallStyle {

    /**
     * The work runs inside the call. Includes methods returning a {@code CompletableFuture} or {@code Future}: the
     * work they start is not deferred to a subscriber (with {@code @Async} the gate runs on the executor thread).
     */
    DIRECT,

    /**
     * The method returns a deferred reactive type ({@code Mono}, {@code Flux}, a Reactive Streams or
     * {@code java.util.concurrent.Flow} {@code Publisher}, RxJava, a Kotlin {@code Flow}, ...): calling it only
     * assembles the pipeline, and the work runs when it is subscribed, after the call and the gate have ended.
     */
    DEFERRED_PUBLISHER,

    /**
     * A Kotlin {@code suspend} function: the call returns at the first suspension point and the coroutine resumes
     * later, possibly on other threads, outside the gate.
     */
    KOTLIN_SUSPEND;

    /** The last parameter of every Kotlin suspend function as the JVM sees it. */
    static final String CONTINUATION = "kotlin.coroutines.Continuation";

    /** Deferred types recognised by name when the registry has no adapter for them (their library may be absent). */
    private static final Set<String> DEFERRED_TYPE_NAMES = Set.of(
            "org.reactivestreams.Publisher",
            "java.util.concurrent.Flow$Publisher",
            "kotlinx.coroutines.flow.Flow");

    static CallStyle of(Method method) {
        Class<?>[] parameters = method.getParameterTypes();
        if (parameters.length > 0 && parameters[parameters.length - 1].getName().equals(CONTINUATION)) {
            return KOTLIN_SUSPEND;
        }
        return isDeferred(method.getReturnType()) ? DEFERRED_PUBLISHER : DIRECT;
    }

    private static boolean isDeferred(Class<?> type) {
        if (type.isPrimitive() || type.isArray()) {
            return false;
        }
        ReactiveAdapter adapter = ReactiveAdapterRegistry.getSharedInstance().getAdapter(type);
        if (adapter != null) {
            return adapter.getDescriptor().isDeferred();
        }
        return hasSupertypeNamed(type);
    }

    private static boolean hasSupertypeNamed(Class<?> type) {
        if (type == null) {
            return false;
        }
        if (DEFERRED_TYPE_NAMES.contains(type.getName())) {
            return true;
        }
        for (Class<?> parent : List.of(type.getInterfaces())) {
            if (hasSupertypeNamed(parent)) {
                return true;
            }
        }
        return hasSupertypeNamed(type.getSuperclass());
    }
}
