package dev.hoplock.spring.observation;

import io.micrometer.common.KeyValues;
import org.jspecify.annotations.Nullable;

/**
 * hoplock's own names and key values of {@code @WithLock} calls: the name {@code hoplock.with-lock}, the contextual name
 * {@code with-lock <method>}, the low-cardinality key {@code method}. The gate itself adds {@code outcome} and {@code lost} to the context as the call goes on; a convention reads
 * them with {@link GateObservationContext#getLowCardinalityKeyValue(String)}. Stateless.
 */
public class DefaultWithLockObservationConvention implements WithLockObservationConvention {

    /** The shared instance. */
    public static final DefaultWithLockObservationConvention INSTANCE = new DefaultWithLockObservationConvention();

    @Override
    public String getName() {
        return HoplockObservations.WITH_LOCK;
    }

    @Override
    public @Nullable String getContextualName(GateObservationContext context) {
        return "with-lock " + context.getMethodKey();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(GateObservationContext context) {
        return KeyValues.of(HoplockObservations.METHOD, context.getMethodKey());
    }
}
