package dev.hoplock.core.ownership;

import dev.hoplock.core.Lease;
import org.jspecify.annotations.Nullable;

import java.util.Optional;

/**
 * What this member's own registry entry needs next, as a pure function of the registry read, its liveness lease, the
 * adopted view and the open claims: register under the current term (the entry rule M1 checks), acknowledge an epoch
 * (rule M5), or remove itself on leave (rule M7, the store part).
 *
 * <p>Guarantees: an entry always names this process and the generation of the term it leads in; a new registration
 * acknowledges no epoch (it acted under none) and a re-registration of the same term keeps its acknowledgement; an
 * acknowledgement of epoch {@code E} is asked for only once {@code E} is the adopted view and every open claim is on a
 * key owned at {@code E} with the same token ({@link ClaimBook#mayAcknowledge}); a leave never removes an entry of
 * another process.
 */
final class SelfRegistration {

    /** A registry write this member wants ({@code next}, described by {@code what}), or, with no write, left. */
    record Change(@Nullable Registry next, String what) {
        static final Change LEFT = new Change(null, "left");

        boolean left() {
            return next == null;
        }
    }

    private SelfRegistration() {
    }

    /** This member's registry entry for the term of {@code generation}, acknowledging epoch {@code ack}. */
    static Registry.Entry entry(GroupConfig config, long generation, long ack) {
        return new Registry.Entry(config.memberId(), config.address(), config.owner(), generation, ack,
                config.ttl().toMillis());
    }

    /**
     * The change of this member's own entry that {@code registry} needs, or null when it needs none (the loop goes on
     * with removals and the watch).
     */
    static @Nullable Change next(GroupConfig config, Registry registry, boolean leaving, Optional<Lease> lease,
                                 @Nullable EpochView current, ClaimBook claims) {
        Registry.Entry me = registry.entry(config.memberId());
        if (leaving) {
            // Rule M7: remove only this registration; once it is gone (or another process's), leaving is done.
            if (me == null || !me.owner().equals(config.owner())) {
                return Change.LEFT;
            }
            return new Change(registry.without(config.memberId()), "leave");
        }
        if (lease.isEmpty()) {
            return null;
        }
        long generation = lease.get().generation();
        if (me == null || !me.owner().equals(config.owner()) || me.generation() != generation
                || !me.address().equals(config.address()) || me.ttlMillis() != config.ttl().toMillis()) {
            boolean sameTerm = me != null && me.owner().equals(config.owner()) && me.generation() == generation;
            // A new registration has acted under no epoch: it acknowledges the one it creates. A re-registration
            // of the same term (a changed address or TTL) keeps its acknowledgement: it may still act under it.
            Registry.Entry entry = entry(config, generation, sameTerm && me != null ? me.ack() : -1);
            Registry joined = registry.join(entry);
            if (sameTerm) {
                joined = new Registry(joined.epoch(), joined.seq(), joined.incarnation(), joined.young(),
                        joined.entries().stream().map(e -> e.id().equals(entry.id()) ? entry : e).toList());
            }
            return new Change(joined, "join");
        }
        // Rule M5: acknowledge only what this member has adopted, and only once no open claim is on a key it
        // does not own, with the same token, at this epoch.
        if (me.ack() < registry.epoch() && current != null && current.epoch == registry.epoch()
                && claims.mayAcknowledge(current)) {
            return new Change(registry.ack(config.memberId()), "acknowledge");
        }
        return null;
    }
}
