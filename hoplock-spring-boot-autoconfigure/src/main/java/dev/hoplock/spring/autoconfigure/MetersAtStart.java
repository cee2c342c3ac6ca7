package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.LeaderOnlyAttribute;
import dev.hoplock.spring.leader.LeaderOnlyAttributeSource;
import dev.hoplock.spring.leader.SkippedCallCounter;
import dev.hoplock.spring.lock.LockCallMeters;
import dev.hoplock.spring.lock.WithLockAttributeSource;
import dev.hoplock.spring.ownership.HoplockOwnership;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

import java.lang.reflect.Method;
import java.util.Map;

/**
 * Registers, once every singleton exists (so the start-up validation has looked at every gated method), the
 * per-method meters of each {@code @WithLock} and {@code @LeaderOnly} method with 0: a counter that never fired reads 0
 * at {@code /actuator/metrics/hoplock.locks.lost} instead of being missing until the first loss. The store timers
 * register themselves when their backend is made ({@code MeteredBackend}). A {@code @LeaderOnly} whose election cannot
 * be resolved is left to its call, which reports that.
 */
final class MetersAtStart implements SmartInitializingSingleton {

    private final ObjectProvider<LockCallMeters> lockMeters;
    private final ObjectProvider<WithLockAttributeSource> lockGates;
    private final ObjectProvider<SkippedCallCounter> skipped;
    private final ObjectProvider<LeaderOnlyAttributeSource> leaderGates;
    private final ObjectProvider<HoplockElections> elections;
    private final ObjectProvider<HoplockOwnership> ownership;

    MetersAtStart(ObjectProvider<LockCallMeters> lockMeters, ObjectProvider<WithLockAttributeSource> lockGates,
            ObjectProvider<SkippedCallCounter> skipped, ObjectProvider<LeaderOnlyAttributeSource> leaderGates,
            ObjectProvider<HoplockElections> elections, ObjectProvider<HoplockOwnership> ownership) {
        this.lockMeters = lockMeters;
        this.lockGates = lockGates;
        this.skipped = skipped;
        this.leaderGates = leaderGates;
        this.elections = elections;
        this.ownership = ownership;
    }

    @Override
    public void afterSingletonsInstantiated() {
        LockCallMeters locks = lockMeters.getIfAvailable();
        WithLockAttributeSource lockSource = lockGates.getIfAvailable();
        if (locks != null && lockSource != null) {
            locks.registerAtStart(lockSource.gatedMethods().keySet());
        }
        SkippedCallCounter counter = skipped.getIfAvailable();
        LeaderOnlyAttributeSource leaderSource = leaderGates.getIfAvailable();
        if (counter == null || leaderSource == null) {
            return;
        }
        for (Map.Entry<Method, LeaderOnlyAttribute> gated : leaderSource.gatedMethods().entrySet()) {
            String election = election(gated.getValue());
            if (election != null) {
                counter.registerAtStart(election, gated.getKey());
            }
        }
    }

    /** The election tag the gate's skipped calls carry, as {@code LeaderOnlyInterceptor} names it; null if unknown. */
    private @Nullable String election(LeaderOnlyAttribute gate) {
        if (gate.isKeyed()) {
            HoplockOwnership group = ownership.getIfAvailable();
            return group == null ? null : "ownership:" + group.name();
        }
        HoplockElections all = elections.getIfAvailable();
        if (all == null) {
            return null;
        }
        try {
            return all.resolve(gate.election());
        } catch (IllegalArgumentException unknown) {
            return null;
        }
    }
}
