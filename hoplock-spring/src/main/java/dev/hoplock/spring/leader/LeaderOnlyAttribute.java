package dev.hoplock.spring.leader;


/**
 * How one method is gated, as resolved from its {@code @LeaderOnly} annotation (on the method or its class) or from
 * {@code hoplock.scheduling.leader-only-all}.
 *
 * @param election        the election name as written; empty: the default election
 * @param onNonLeader     SKIP or THROW (never DEFAULT: the property's value is already applied)
 * @param interruptOnLoss whether the calling thread is interrupted when the term ends during the call
 * @param origin          where the gate comes from, for messages
 * @param key             the SpEL expression of the key for a per-key gate; empty: an election gate
 */
public record LeaderOnlyAttribute(String election, OnNonLeader onNonLeader, boolean interruptOnLoss, String origin,
                                  String key) {

    /** An election gate. */
    public LeaderOnlyAttribute(String election, OnNonLeader onNonLeader, boolean interruptOnLoss, String origin) {
        this(election, onNonLeader, interruptOnLoss, origin, "");
    }

    /** True for a per-key ownership gate ({@code @LeaderOnly(key = ...)}). */
    public boolean isKeyed() {
        return !key.isEmpty();
    }
}
