package dev.hoplock.spring.ownership;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Publishes an {@link OwnershipChangedEvent} at every membership change of the ownership group. Subscribes when
 * constructed, before the group starts, so no change is missed. A listener that throws is logged.
 */
public final class OwnershipEventPublisher implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(OwnershipEventPublisher.class);

    private final AutoCloseable subscription;

    public OwnershipEventPublisher(HoplockOwnership ownership, ApplicationEventPublisher publisher) {
        this.subscription = ownership.addChangeListener(change -> {
            OwnershipChangedEvent event = new OwnershipChangedEvent(ownership, change);
            try {
                publisher.publishEvent(event);
            } catch (RuntimeException e) {
                log.warn("hoplock: a listener of {} failed: {}", event, e.toString());
            }
        });
    }

    @Override
    public void destroy() throws Exception {
        subscription.close();
    }
}
