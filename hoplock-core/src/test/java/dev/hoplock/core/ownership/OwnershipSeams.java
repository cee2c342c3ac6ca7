package dev.hoplock.core.ownership;

import dev.hoplock.core.election.Elector;
import org.jspecify.annotations.Nullable;

import java.util.function.Consumer;

/** Package-private settings of {@link OwnershipGroup.Builder} for the simulation: test code only. */
public final class OwnershipSeams {

    /** The rule-breaking defects the simulation plants to prove its checker sees them. */
    public enum PlantedDefect {
        SETTLE_AT_ONCE, NO_VIEW_DEADLINE, HASTY_REMOVAL, IGNORE_LEASE, YOUNG_REGISTRY_SETTLED_BY_ACKS,
        SAME_EPOCH_IS_SAME_VIEW, GENERATION_ONLY_REGISTRATION, TOKEN_LOOKS_BACK_FOUR,
        NO_REGISTRY_END_LINE
    }

    private OwnershipSeams() {
    }

    public static OwnershipGroup.Builder plant(OwnershipGroup.Builder builder, PlantedDefect defect) {
        builder.defects.add(GroupConfig.Defect.valueOf(defect.name()));
        return builder;
    }

    public static OwnershipGroup.Builder electorCustomizer(OwnershipGroup.Builder builder,
                                                           Consumer<Elector.Builder> customizer) {
        builder.electorCustomizer = customizer;
        return builder;
    }

    /** The token of {@code key} or -1: what the hot path answers. */
    public static long tokenIfActing(OwnershipGroup group, String key) {
        return group.gate().tokenIfActing(key);
    }

    /**
     * The incarnation id of the registry version the group's current view was adopted from (the view
     * {@link #tokenIfActing} answers under), or null when it has none.
     */
    public static @Nullable String viewIncarnation(OwnershipGroup group) {
        EpochView view = group.currentView();
        return view == null ? null : view.registry.incarnation();
    }

    /** The group's internal state, for simulation traces. */
    public static String describe(OwnershipGroup group) {
        return group.gate().describe();
    }
}
