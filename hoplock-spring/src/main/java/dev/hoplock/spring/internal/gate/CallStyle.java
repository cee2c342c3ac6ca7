package dev.hoplock.spring.internal.gate;

import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

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
 * <p>{@link #DIRECT} methods are gated around the call; the others around each subscription ({@link DeferredGate}),
 * which needs Reactor ({@link #REACTOR_PRESENT}), and for a Kotlin suspend function Spring AOP's coroutine bridge
 * ({@link #COROUTINES_BRIDGE_PRESENT}); without them the start-up validators refuse such methods
 * ({@link GatedMethodValidator#outsideTheCall}), naming the dependency to add.
 */
public enum CallStyle {

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

    /** Whether Reactor is on the class path: a deferred method can be gated (per subscription) only then. */
    public static final boolean REACTOR_PRESENT = ClassUtils.isPresent("reactor.core.publisher.Mono",
            CallStyle.class.getClassLoader());

    /**
     * Whether Spring AOP invokes Kotlin suspend functions as publishers and awaits what the advice returns:
     * kotlinx-coroutines-reactor (Spring's own condition, in {@code AopUtils} and the proxies of Framework 6.1+) and
     * kotlin-reflect (which Spring's {@code CoroutinesUtils} needs to call the function).
     */
    public static final boolean COROUTINES_BRIDGE_PRESENT = REACTOR_PRESENT
            && ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt", CallStyle.class.getClassLoader())
            && ClassUtils.isPresent("kotlin.reflect.full.KClasses", CallStyle.class.getClassLoader());

    /** The last parameter of every Kotlin suspend function as the JVM sees it. */
    static final String CONTINUATION = "kotlin.coroutines.Continuation";

    /** Deferred types recognised by name when the registry has no adapter for them (their library may be absent). */
    private static final Set<String> DEFERRED_TYPE_NAMES = Set.of(
            "org.reactivestreams.Publisher",
            "java.util.concurrent.Flow$Publisher",
            "kotlinx.coroutines.flow.Flow");

    /**
     * Whether the gates can span this style here: always for {@link #DIRECT}; with Reactor for a deferred type that
     * Spring's adapter registry knows; with the coroutine bridge for a suspend function.
     */
    public boolean gateable(Method method) {
        return switch (this) {
            case DIRECT -> true;
            case DEFERRED_PUBLISHER -> REACTOR_PRESENT
                    && ReactiveAdapterRegistry.getSharedInstance().getAdapter(method.getReturnType()) != null;
            case KOTLIN_SUSPEND -> COROUTINES_BRIDGE_PRESENT;
        };
    }

    public static CallStyle of(Method method) {
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
