package dev.hoplock.core.lock;

import dev.hoplock.core.internal.runtime.ListenerFanOut;
import dev.hoplock.core.lock.LockEvent;
import dev.hoplock.core.lock.LockLossCause;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The listeners of one {@link NamedLocks} and the delivery of its {@link LockEvent}s.
 *
 * <p>Guarantees: events go out on the event executor, never on the thread that holds a slot's monitor, in the order
 * they were published; a listener that throws is logged and does not stop the others; an executor that refuses a
 * delivery loses that event (logged), never the lock's state. A loss is logged (debug for an expiry, warn otherwise)
 * before it is delivered to the instance's listeners and then to the handle's loss listeners.
 */
final class LockEvents {

    private static final Logger log = LoggerFactory.getLogger(NamedLocks.class);

    private final ListenerFanOut<LockEvent> listeners;

    LockEvents(Executor executor) {
        this.listeners = new ListenerFanOut<>(executor, log, "lock");
    }

    AutoCloseable addListener(Consumer<? super LockEvent> listener) {
        return listeners.add(listener);
    }

    void publish(LockEvent event) {
        listeners.publish(event);
    }

    void publishLoss(LockEvent.Lost event, List<Consumer<? super LockEvent.Lost>> handleListeners) {
        if (event.cause() == LockLossCause.EXPIRED) {
            log.debug("hoplock: the lock '{}' (token {}) expired: {}", event.name(), event.token(), event.detail());
        } else {
            log.warn("hoplock: lost the lock '{}' (token {}): {} ({})", event.name(), event.token(), event.cause(),
                    event.detail());
        }
        publish(event);
        listeners.deliver(handleListeners, event);
    }
}
