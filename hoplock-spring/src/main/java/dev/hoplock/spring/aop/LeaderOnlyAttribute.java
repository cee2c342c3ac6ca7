package dev.hoplock.spring.aop;

import dev.hoplock.spring.annotation.OnNonLeader;

/**
 * How one method is gated, as resolved from its {@code @LeaderOnly} annotation (on the method or its class) or from
 * {@code hoplock.scheduling.leader-only-all}.
 *
 * @param election        the election name as written; empty: the default election
 * @param onNonLeader     SKIP or THROW (never DEFAULT: the property's value is already applied)
 * @param interruptOnLoss whether the calling thread is interrupted when the term ends during the call
 * @param origin          where the gate comes from, for messages
 */
public record LeaderOnlyAttribute(String election, OnNonLeader onNonLeader, boolean interruptOnLoss, String origin) {
}
