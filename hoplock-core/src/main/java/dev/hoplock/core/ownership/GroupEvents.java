package dev.hoplock.core.ownership;

import dev.hoplock.core.internal.runtime.ListenerFanOut;
import org.slf4j.LoggerFactory;

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

    private final ListenerFanOut<OwnershipEvent> listeners;

    GroupEvents(Executor eventExecutor) {
        this.listeners = new ListenerFanOut<>(eventExecutor, LoggerFactory.getLogger(OwnershipGroup.class),
                "ownership");
    }

    AutoCloseable add(Consumer<? super OwnershipEvent> listener) {
        return listeners.add(listener);
    }

    /** Publishes {@code event} to the listeners. */
    @Override
    public void accept(OwnershipEvent event) {
        listeners.publish(event);
    }
}
