package dev.hoplock.spring.leader;

import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.election.Elector;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEventPublisher;


/**
 * Republishes every election's {@link ElectionEvent.Acquired}, {@link ElectionEvent.Lost} and
 * {@link ElectionEvent.LeaderObserved} as {@link LeadershipAcquiredEvent}, {@link LeadershipLostEvent} and
 * {@link LeaderObservedEvent}.
 *
 * <p>Guarantees: it subscribes when constructed, before the electors start, so no acquisition or loss is missed;
 * Acquired and Lost are never dropped by the core. A listener that throws is logged and does not stop later events.
 */
public final class LeadershipEventPublisher implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(LeadershipEventPublisher.class);

    private final ApplicationEventPublisher publisher;
    private final ElectorSubscriptions subscriptions = new ElectorSubscriptions(log, "an event subscription");

    public LeadershipEventPublisher(HoplockElections elections, ApplicationEventPublisher publisher) {
        this.publisher = publisher;
        elections.asMap().forEach((name, elector) ->
                subscriptions.add(elector.addListener(event -> publish(name, elector, event))));
    }

    private void publish(String name, Elector elector, ElectionEvent event) {
        ElectionApplicationEvent translated = translate(name, elector, event);
        if (translated == null) {
            return;
        }
        try {
            publisher.publishEvent(translated);
        } catch (RuntimeException e) {
            // Also the case once the context is closed: the multicaster is gone by then.
            log.warn("hoplock: a listener of {} failed: {}", translated, e.toString());
        }
    }

    static @Nullable ElectionApplicationEvent translate(String name, Elector elector, ElectionEvent event) {
        if (event instanceof ElectionEvent.Acquired acquired) {
            return new LeadershipAcquiredEvent(elector, name, acquired.at(), acquired.lease());
        }
        if (event instanceof ElectionEvent.Lost lost) {
            return new LeadershipLostEvent(elector, name, lost.at(), lost.lease(), lost.cause(), lost.detail());
        }
        if (event instanceof ElectionEvent.LeaderObserved observed) {
            return new LeaderObservedEvent(elector, name, observed.at(), observed.holder());
        }
        return null;
    }

    @Override
    public void destroy() {
        subscriptions.closeAll();
    }
}
