package dev.hoplock.spring.observation;

import io.micrometer.common.KeyValues;
import org.jspecify.annotations.Nullable;

import static dev.hoplock.spring.observation.HoplockObservations.NAME;
import static dev.hoplock.spring.observation.HoplockObservations.OPERATION;
import static dev.hoplock.spring.observation.HoplockObservations.OUTCOME;
import static dev.hoplock.spring.observation.HoplockObservations.PRIMITIVE;
import static dev.hoplock.spring.observation.HoplockObservations.RESULT;
import static dev.hoplock.spring.observation.HoplockObservations.STORE;

/**
 * hoplock's own names and key values of a store request: the name {@code hoplock.store.request}, the contextual name
 * {@code hoplock <operation>}, the low-cardinality keys {@code store}, {@code primitive}, {@code name},
 * {@code operation}, and at the stop {@code outcome} and {@code result}. No high-cardinality key. Stateless.
 */
public class DefaultStoreRequestObservationConvention implements StoreRequestObservationConvention {

    /** The shared instance. */
    public static final DefaultStoreRequestObservationConvention INSTANCE = new DefaultStoreRequestObservationConvention();

    @Override
    public String getName() {
        return HoplockObservations.STORE_REQUEST;
    }

    @Override
    public @Nullable String getContextualName(StoreRequestObservationContext context) {
        return "hoplock " + context.getOperation();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(StoreRequestObservationContext context) {
        KeyValues values = KeyValues.of(STORE, context.getStore(), PRIMITIVE, context.getPrimitive(), NAME,
                context.getPrimitiveName(), OPERATION, context.getOperation());
        String outcome = context.getOutcome();
        String result = context.getResult();
        return outcome == null || result == null ? values : values.and(OUTCOME, outcome, RESULT, result);
    }
}
