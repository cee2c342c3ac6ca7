package dev.hoplock.spring.lock;

import dev.hoplock.core.lock.Locks;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Meters of {@code @WithLock} calls, tagged {@code method} ({@code SimpleClassName.methodName}; never the lock name,
 * which a SpEL template can make unbounded):
 * <ul>
 *   <li>{@value #ACQUIRED} (counter): calls that took their lock and ran;</li>
 *   <li>{@value #REFUSED} (counter, also tagged {@code reason}: {@code held_elsewhere}, {@code held_here},
 *       {@code unavailable}): calls that did not run;</li>
 *   <li>{@value #LOST} (counter): calls whose lock ended before they did;</li>
 *   <li>{@value #HELD} (timer): how long each call's lock was held (to its release, the end of its minimum hold, or
 *       its loss);</li>
 *   <li>{@value #HELD_NOW} (gauge, untagged): locks this instance holds now, taken through the annotation or the
 *       {@link Locks} bean.</li>
 * </ul>
 * The meters of the {@code @WithLock} methods found at start are registered then, with 0 ({@link #registerAtStart}).
 */
public final class LockCallMeters implements WithLockListener {

    public static final String ACQUIRED = "hoplock.locks.acquired";
    public static final String REFUSED = "hoplock.locks.refused";
    public static final String LOST = "hoplock.locks.lost";
    public static final String HELD = "hoplock.locks.held";
    public static final String HELD_NOW = "hoplock.locks.held.now";

    private final MeterRegistry registry;
    private final Map<Method, Counter> acquired = new ConcurrentHashMap<>();
    private final Map<Method, Counter> lost = new ConcurrentHashMap<>();
    private final Map<Method, Timer> held = new ConcurrentHashMap<>();
    private final Map<Refusal, Map<Method, Counter>> refused = new ConcurrentHashMap<>();

    /**
     * @param registry where the meters go
     * @param locks    the locks whose held count the gauge shows, or null for no gauge
     */
    public LockCallMeters(MeterRegistry registry, @Nullable Locks locks) {
        this.registry = registry;
        if (locks != null) {
            Gauge.builder(HELD_NOW, locks, l -> l.held().size())
                    .description("Named locks this instance holds now").register(registry);
        }
    }

    /**
     * Registers every meter of each method in {@code methods} with 0 (for {@code @WithLock} methods found at start),
     * so that a counter that never fired reads 0 instead of being missing. Idempotent.
     */
    public void registerAtStart(Collection<Method> methods) {
        for (Method method : methods) {
            acquired(method);
            lost(method);
            held(method);
            for (Refusal why : Refusal.values()) {
                refused(method, why);
            }
        }
    }

    @Override
    public void acquired(String lock, Method method) {
        acquired(method).increment();
    }

    @Override
    public void refused(String lock, Method method, Refusal why) {
        refused(method, why).increment();
    }

    @Override
    public void ended(String lock, Method method, Duration heldFor, boolean wasLost) {
        held(method).record(heldFor);
        if (wasLost) {
            lost(method).increment();
        }
    }

    private Counter acquired(Method method) {
        return meter(acquired, method, m -> Counter.builder(ACQUIRED).description("@WithLock calls that took their lock")
                .tag("method", tag(m)).register(registry));
    }

    private Counter refused(Method method, Refusal why) {
        Map<Method, Counter> ofReason = refused.computeIfAbsent(why, r -> new ConcurrentHashMap<>());
        return meter(ofReason, method, m -> Counter.builder(REFUSED)
                .description("@WithLock calls not run because their lock could not be taken")
                .tag("method", tag(m)).tag("reason", why.name().toLowerCase(java.util.Locale.ROOT))
                .register(registry));
    }

    private Timer held(Method method) {
        return meter(held, method, m -> Timer.builder(HELD).description("How long @WithLock calls held their lock")
                .tag("method", tag(m)).register(registry));
    }

    private Counter lost(Method method) {
        return meter(lost, method, m -> Counter.builder(LOST)
                .description("@WithLock calls whose lock ended before the call did")
                .tag("method", tag(m)).register(registry));
    }

    private static <M> M meter(Map<Method, M> meters, Method method, Function<Method, M> create) {
        M meter = meters.get(method);
        return meter != null ? meter : meters.computeIfAbsent(method, create);
    }

    private static String tag(Method method) {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }
}
