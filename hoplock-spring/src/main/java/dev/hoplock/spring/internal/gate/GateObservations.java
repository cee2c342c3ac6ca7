package dev.hoplock.spring.internal.gate;

import dev.hoplock.spring.observation.DefaultLeaderOnlyObservationConvention;
import dev.hoplock.spring.observation.DefaultWithLockHoldObservationConvention;
import dev.hoplock.spring.observation.DefaultWithLockObservationConvention;
import dev.hoplock.spring.observation.GateObservationContext;
import dev.hoplock.spring.observation.HoplockObservations;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Whether a gate observes its calls, decided once, at its first call: the application's {@link ObservationRegistry}
 * when it has one that is not a no-op (a registry without handlers, or {@link ObservationRegistry#NOOP}, counts as
 * none), else none. A gate asks {@link #registry()} once per call and takes its unobserved path, unchanged, when the
 * answer is null: then observing costs one volatile read and one comparison, no allocation, no store request.
 *
 * <p>Creates the gates' observations ({@link #leaderOnly}, {@link #withLock}, {@link #withLockHold}) with a
 * {@link GateObservationContext} and hoplock's default conventions, which the registry's global conventions of the
 * same contexts replace (Spring Boot registers an application's {@code LeaderOnlyObservationConvention},
 * {@code WithLockObservationConvention} and {@code WithLockHoldObservationConvention} beans as such).
 *
 * <p>Also the {@code method} key of the gates' observations ({@code SimpleClassName.method}), computed once per
 * method.
 */
public final class GateObservations {

    private static final Object ABSENT = new Object();

    private final Supplier<@Nullable ObservationRegistry> lookup;
    private volatile @Nullable Object resolved;
    private final Map<Method, String> methodKeys = new ConcurrentHashMap<>();

    /** {@code lookup}: asked once, at the first call (null: no registry). */
    public GateObservations(Supplier<@Nullable ObservationRegistry> lookup) {
        this.lookup = Objects.requireNonNull(lookup, "lookup");
    }

    /** Never observes. */
    public static GateObservations none() {
        return new GateObservations(() -> null);
    }

    /** The registry to observe calls with, or null when calls are not observed. */
    public @Nullable ObservationRegistry registry() {
        Object known = resolved;
        if (known == null) {
            ObservationRegistry found = lookup.get();
            known = found == null || found.isNoop() ? ABSENT : found;
            resolved = known;
        }
        return known == ABSENT ? null : (ObservationRegistry) known;
    }

    /** {@code SimpleClassName.method}, as the gates' meters tag a method. */
    public String methodKey(Method method) {
        String known = methodKeys.get(method);
        return known != null ? known
                : methodKeys.computeIfAbsent(method, m -> m.getDeclaringClass().getSimpleName() + "." + m.getName());
    }

    /**
     * A not started {@code hoplock.leader-only} observation of a call of {@code method} in {@code election}, named by
     * the registry's global {@code LeaderOnlyObservationConvention} if it has one, else by the default one. Only on
     * the observed path (a registry is present): the context is allocated then only.
     */
    public Observation leaderOnly(ObservationRegistry registry, String election, Method method) {
        String key = methodKey(method);
        return Observation.createNotStarted(null, DefaultLeaderOnlyObservationConvention.INSTANCE,
                () -> new GateObservationContext(HoplockObservations.LEADER_ONLY, method, key, election), registry);
    }

    /** A not started {@code hoplock.with-lock} observation of a call of {@code method}; see {@link #leaderOnly}. */
    public Observation withLock(ObservationRegistry registry, Method method) {
        String key = methodKey(method);
        return Observation.createNotStarted(null, DefaultWithLockObservationConvention.INSTANCE,
                () -> new GateObservationContext(HoplockObservations.WITH_LOCK, method, key, null), registry);
    }

    /** A not started {@code hoplock.with-lock.hold} observation of a call of {@code method}; see {@link #leaderOnly}. */
    public Observation withLockHold(ObservationRegistry registry, Method method) {
        String key = methodKey(method);
        return Observation.createNotStarted(null, DefaultWithLockHoldObservationConvention.INSTANCE,
                () -> new GateObservationContext(HoplockObservations.WITH_LOCK_HOLD, method, key, null), registry);
    }

    /** Adds {@code event} to the current observation of {@code registry}, if there is one. */
    public static void eventOnCurrent(ObservationRegistry registry, Observation.Event event) {
        Observation current = registry.getCurrentObservation();
        if (current != null) {
            current.event(event);
        }
    }
}
