package dev.hoplock.spring.ownership;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The meters of the ownership group, tagged {@code group}:
 * <ul>
 *   <li>{@value #MEMBERS} (gauge): members in the current view; 0 while the members are not known;</li>
 *   <li>{@value #SHARE} (gauge, 0 to 1): of the keys this instance has checked, the share it owns in the current
 *       view (ideally 1/members);</li>
 *   <li>{@value #MEMBERSHIP_CHANGES} (counter): membership changes this instance adopted;</li>
 *   <li>{@value #KEYS_MOVED} (counter): keys checked by this instance that changed owner, summed over the changes.</li>
 * </ul>
 * Every meter reads local state only: no store request. The share costs one rendezvous computation per key seen
 * (at most 10,000) at each scrape.
 */
public final class OwnershipMeterBinder implements MeterBinder {

    public static final String MEMBERS = "hoplock.ownership.members";
    public static final String SHARE = "hoplock.ownership.share";
    public static final String MEMBERSHIP_CHANGES = "hoplock.ownership.membership.changes";
    public static final String KEYS_MOVED = "hoplock.ownership.keys.moved";

    private final HoplockOwnership ownership;

    public OwnershipMeterBinder(HoplockOwnership ownership) {
        this.ownership = ownership;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        String group = ownership.name();
        Gauge.builder(MEMBERS, ownership, o -> o.members().size())
                .description("Members of the ownership group in this instance's current view")
                .tag("group", group)
                .strongReference(true)
                .register(registry);
        Gauge.builder(SHARE, ownership, HoplockOwnership::shareOfKeysSeen)
                .description("Share of the keys this instance checked that it owns in the current view")
                .tag("group", group)
                .strongReference(true)
                .register(registry);
        FunctionCounter.builder(MEMBERSHIP_CHANGES, ownership, HoplockOwnership::membershipChanges)
                .description("Membership changes this instance adopted")
                .tag("group", group)
                .register(registry);
        FunctionCounter.builder(KEYS_MOVED, ownership, HoplockOwnership::movedKeys)
                .description("Keys checked by this instance that changed owner at a membership change")
                .tag("group", group)
                .register(registry);
    }
}
