package dev.hoplock.core.ownership;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;

/**
 * Rule M6 for the one member this member watches, the next by id around the ring: the {@link LeaseWatch} on its
 * liveness lease, and its entry once that watch proved it stopped (then removable). State of the
 * {@link MembershipLoop}, guarded by its lock.
 */
final class NeighbourWatch {

    private @Nullable LeaseWatch watch;
    private Registry.@Nullable Entry removable;

    /** The entry of the member after this one (by id, around the ring) in {@code latest}, or null when none. */
    static Registry.@Nullable Entry neighbour(@Nullable EpochView view, @Nullable Registry latest) {
        if (view == null || view.selfIndex < 0 || view.view.size() < 2) {
            return null;
        }
        String id = view.view.members().get((view.selfIndex + 1) % view.view.size()).id();
        return Objects.requireNonNull(latest, "a view is adopted from a registry").entry(id);
    }

    /** The watch of {@code entry}'s lease, a new one when the entry changed (rule M6 needs a whole ttl observed). */
    LeaseWatch watch(Registry.Entry entry, long ttlNanos, boolean hastyRemoval) {
        if (watch == null || !watch.watches(entry)) {
            long ttl = Math.max(ttlNanos, Duration.ofMillis(entry.ttlMillis()).toNanos());
            watch = new LeaseWatch(entry, hastyRemoval ? 0 : ttl);
            removable = null;
        }
        return watch;
    }

    /** The watch proved the member of {@code entry} stopped: its entry may be removed. */
    void provedStopped(Registry.Entry entry) {
        removable = entry;
    }

    boolean removalPending() {
        return removable != null;
    }

    /** The entry to remove from {@code registry} (rule M6): the one proved stopped, if still the one watched. */
    Registry.@Nullable Entry removal(Registry registry) {
        if (removable != null) {
            Registry.Entry entry = registry.entry(removable.id());
            if (entry != null && watch != null && watch.watches(entry)) {
                return entry;
            }
            removable = null;
        }
        return null;
    }

    /** The removal was written: the next neighbour is watched afresh. */
    void removed() {
        removable = null;
        watch = null;
    }
}
