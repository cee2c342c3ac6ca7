package dev.hoplock.spring.observation;

import io.micrometer.common.KeyValues;
import org.jspecify.annotations.Nullable;

import static dev.hoplock.spring.observation.HoplockObservations.ACQUISITION;
import static dev.hoplock.spring.observation.HoplockObservations.CAUSE;
import static dev.hoplock.spring.observation.HoplockObservations.GENERATION;
import static dev.hoplock.spring.observation.HoplockObservations.NAME;
import static dev.hoplock.spring.observation.HoplockObservations.OUTCOME;
import static dev.hoplock.spring.observation.HoplockObservations.PRIMITIVE;

/**
 * hoplock's own names and key values of a lease term: the name {@code hoplock.lease}, the contextual name
 * {@code hoplock lease}, the low-cardinality keys {@code primitive}, {@code name}, {@code acquisition}, and at the
 * end {@code outcome} and {@code cause}; the high-cardinality key {@code generation}. Stateless.
 */
public class DefaultLeaseObservationConvention implements LeaseObservationConvention {

    /** The shared instance. */
    public static final DefaultLeaseObservationConvention INSTANCE = new DefaultLeaseObservationConvention();

    @Override
    public String getName() {
        return HoplockObservations.LEASE;
    }

    @Override
    public @Nullable String getContextualName(LeaseObservationContext context) {
        return "hoplock lease";
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(LeaseObservationContext context) {
        KeyValues values = KeyValues.of(PRIMITIVE, context.getPrimitive(), NAME, context.getPrimitiveName(),
                ACQUISITION, context.getAcquisition());
        String outcome = context.getOutcome();
        String cause = context.getCause();
        return outcome == null || cause == null ? values : values.and(OUTCOME, outcome, CAUSE, cause);
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(LeaseObservationContext context) {
        return KeyValues.of(GENERATION, Long.toString(context.getGeneration()));
    }
}
