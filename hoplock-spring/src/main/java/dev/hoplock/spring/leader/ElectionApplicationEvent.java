package dev.hoplock.spring.leader;

import dev.hoplock.core.election.Elector;
import org.springframework.context.ApplicationEvent;

import java.time.Instant;

/**
 * Base of the Spring application events hoplock publishes: something happened to one election, as this instance saw
 * it. The source is the {@link Elector}.
 *
 * <p>Guarantees: events are published on the elector's event thread (never on the thread that runs leader work),
 * in the order they happened, after the state change: in a {@link LeadershipLostEvent} listener,
 * {@link Elector#isLeader()} already answers false. They carry no secrets.
 */
public abstract class ElectionApplicationEvent extends ApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final String election;
    private final Instant at;

    protected ElectionApplicationEvent(Elector source, String election, Instant at) {
        super(source);
        this.election = election;
        this.at = at;
    }

    /** The name of the election ({@code default} or a key of {@code hoplock.elections}). */
    public String election() {
        return election;
    }

    /** When it happened, by this instance's wall clock. */
    public Instant at() {
        return at;
    }

    /** The elector of the election. */
    public Elector elector() {
        return (Elector) getSource();
    }
}
