package dev.hoplock.spring.observation;

import io.micrometer.common.KeyValues;
import org.jspecify.annotations.Nullable;

/**
 * hoplock's own names and key values of the hold of {@code @WithLock} calls (from the acquisition to the end of the call): the name {@code hoplock.with-lock.hold}, the contextual name
 * {@code with-lock hold}, the low-cardinality key {@code method}. The gate adds {@code lost} at the end. Stateless.
 */
public class DefaultWithLockHoldObservationConvention implements WithLockHoldObservationConvention {

    /** The shared instance. */
    public static final DefaultWithLockHoldObservationConvention INSTANCE = new DefaultWithLockHoldObservationConvention();

    @Override
    public String getName() {
        return HoplockObservations.WITH_LOCK_HOLD;
    }

    @Override
    public @Nullable String getContextualName(GateObservationContext context) {
        return "with-lock hold";
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(GateObservationContext context) {
        return KeyValues.of(HoplockObservations.METHOD, context.getMethodKey());
    }
}
