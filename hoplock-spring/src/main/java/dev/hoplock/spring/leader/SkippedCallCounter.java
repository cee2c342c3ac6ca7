package dev.hoplock.spring.leader;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts {@code @LeaderOnly} calls that did not run on this instance as {@value #METER}, tagged {@code election}
 * and {@code method} ({@code SimpleClassName.methodName}).
 */
public final class SkippedCallCounter implements LeaderOnlyListener {

    /** The counter's name. */
    public static final String METER = "hoplock.leader-only.skipped";

    private final MeterRegistry registry;
    private final Map<Method, Map<String, Counter>> counters = new ConcurrentHashMap<>();

    public SkippedCallCounter(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * Registers the counter of {@code method} in {@code election} with 0 (for {@code @LeaderOnly} methods found at
     * start), so that a method never skipped reads 0 instead of being missing. Idempotent.
     */
    public void registerAtStart(String election, Method method) {
        counters.computeIfAbsent(method, m -> new ConcurrentHashMap<>())
                .computeIfAbsent(election, e -> register(e, method));
    }

    @Override
    public void notRun(String election, Method method) {
        // Plain lookups first: a capturing lambda would allocate on every skipped call.
        Map<String, Counter> ofMethod = counters.get(method);
        if (ofMethod == null) {
            ofMethod = counters.computeIfAbsent(method, m -> new ConcurrentHashMap<>());
        }
        Counter counter = ofMethod.get(election);
        if (counter == null) {
            counter = ofMethod.computeIfAbsent(election, e -> register(e, method));
        }
        counter.increment();
    }

    private Counter register(String election, Method method) {
        return Counter.builder(METER)
                .description("@LeaderOnly calls not run because this instance does not lead")
                .tag("election", election)
                .tag("method", method.getDeclaringClass().getSimpleName() + "." + method.getName())
                .register(registry);
    }
}
