package dev.hoplock.spring.observation;

import io.micrometer.common.KeyValues;
import org.jspecify.annotations.Nullable;

/**
 * hoplock's own names and key values of {@code @LeaderOnly} calls that ran: the name {@code hoplock.leader-only}, the contextual name
 * {@code leader-only <method>}, the low-cardinality keys {@code election} and {@code method}. Stateless.
 */
public class DefaultLeaderOnlyObservationConvention implements LeaderOnlyObservationConvention {

    /** The shared instance. */
    public static final DefaultLeaderOnlyObservationConvention INSTANCE = new DefaultLeaderOnlyObservationConvention();

    @Override
    public String getName() {
        return HoplockObservations.LEADER_ONLY;
    }

    @Override
    public @Nullable String getContextualName(GateObservationContext context) {
        return "leader-only " + context.getMethodKey();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(GateObservationContext context) {
        String election = context.getElection();
        return KeyValues.of(HoplockObservations.ELECTION, election == null ? "" : election,
                HoplockObservations.METHOD, context.getMethodKey());
    }
}
