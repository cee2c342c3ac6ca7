package dev.hoplock.spring.leader;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.Holder;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.Optional;

/**
 * The holder of an election, as seen in the store by this instance, changed: another instance, this one, or nobody
 * (empty: the lease is free). A view, not a promise.
 */
public class LeaderObservedEvent extends ElectionApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final transient @Nullable Holder holder;

    public LeaderObservedEvent(Elector source, String election, Instant at, Optional<Holder> holder) {
        super(source, election, at);
        this.holder = holder.orElse(null);
    }

    /** The holder now seen; empty when the lease is free. */
    public Optional<Holder> holder() {
        return Optional.ofNullable(holder);
    }

    @Override
    public String toString() {
        return "LeaderObservedEvent[" + election() + ", " + (holder == null ? "free" : holder.owner()) + "]";
    }
}
