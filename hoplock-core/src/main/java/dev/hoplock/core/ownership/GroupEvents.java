package dev.hoplock.core.ownership;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The listeners of an {@link OwnershipGroup} and the delivery of its {@link OwnershipEvent}s on the event executor.
 *
 * <p>Guarantees: events reach every listener in the order published, on the event executor, never on the thread that
 * publishes (the membership loop holds its lock then); a failing listener is logged and does not stop the others; an
 * event published after the executor closed is dropped with a debug line.
 */
final class GroupEvents implements Consumer<OwnershipEvent> {

    private static final Logger log = LoggerFactory.getLogger(OwnershipGroup.class);

    private final Executor eventExecutor;
    private final List<Consumer<? super OwnershipEvent>> listeners = new CopyOnWriteArrayList<>();

    GroupEvents(Executor eventExecutor) {
        this.eventExecutor = eventExecutor;
    }

    AutoCloseable add(Consumer<? super OwnershipEvent> listener) {
        Objects.requireNonNull(listener, "listener");
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    /** Publishes {@code event} to the listeners. */
    @Override
    public void accept(OwnershipEvent event) {
        if (listeners.isEmpty()) {
            return;
        }
        try {
            eventExecutor.execute(() -> {
                for (Consumer<? super OwnershipEvent> listener : listeners) {
                    try {
                        listener.accept(event);
                    } catch (RuntimeException e) {
                        log.warn("hoplock: an ownership listener failed on {}", event, e);
                    }
                }
            });
        } catch (RuntimeException rejected) {
            log.debug("hoplock: ownership event not delivered (executor closed): {}", event);
        }
    }
}
