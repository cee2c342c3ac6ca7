package dev.hoplock.core;

import dev.hoplock.core.lock.LockEvent;
import dev.hoplock.core.lock.LockLossCause;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
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

    private final Executor executor;
    private final List<Consumer<? super LockEvent>> listeners = new CopyOnWriteArrayList<>();

    LockEvents(Executor executor) {
        this.executor = executor;
    }

    AutoCloseable addListener(Consumer<? super LockEvent> listener) {
        Objects.requireNonNull(listener, "listener");
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    void publish(LockEvent event) {
        if (listeners.isEmpty()) {
            return;
        }
        deliver(() -> {
            for (Consumer<? super LockEvent> listener : listeners) {
                try {
                    listener.accept(event);
                } catch (RuntimeException e) {
                    log.warn("hoplock: a lock listener failed on {}", event, e);
                }
            }
        });
    }

    void publishLoss(LockEvent.Lost event, List<Consumer<? super LockEvent.Lost>> handleListeners) {
        if (event.cause() == LockLossCause.EXPIRED) {
            log.debug("hoplock: the lock '{}' (token {}) expired: {}", event.name(), event.token(), event.detail());
        } else {
            log.warn("hoplock: lost the lock '{}' (token {}): {} ({})", event.name(), event.token(), event.cause(),
                    event.detail());
        }
        publish(event);
        if (!handleListeners.isEmpty()) {
            deliver(() -> {
                for (Consumer<? super LockEvent.Lost> listener : handleListeners) {
                    try {
                        listener.accept(event);
                    } catch (RuntimeException e) {
                        log.warn("hoplock: a lock-loss listener failed on {}", event, e);
                    }
                }
            });
        }
    }

    private void deliver(Runnable delivery) {
        try {
            executor.execute(delivery);
        } catch (RuntimeException e) {
            log.warn("hoplock: a lock event could not be delivered ({})", e.toString());
        }
    }
}
