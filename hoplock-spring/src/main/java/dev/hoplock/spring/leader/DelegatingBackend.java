package dev.hoplock.spring.leader;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A base for the backend a {@link BackendDecorator} returns: it forwards every request to the wrapped store, and
 * {@link Backend#verify()} and {@link Backend#describe()} too, as the decorator contract requires (the elector
 * verifies the store through the decorated backend before it campaigns, and the default {@code verify()} checks
 * nothing), so that a subclass only overrides the requests it observes.
 *
 * <p>Guarantees: every method not overridden returns exactly what the delegate returns, or throws what it throws.
 */
public abstract class DelegatingBackend implements Backend {

    /** The wrapped store. */
    protected final Backend delegate;

    protected DelegatingBackend(Backend delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The wrapped store (which may be another decorator), for example to tell which store is underneath. */
    public final Backend delegate() {
        return delegate;
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        return delegate.read(key, timeout);
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        return delegate.write(key, expected, content, timeout);
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        return delegate.delete(key, expected, timeout);
    }

    /** Forwarded: the store's own verification (the S3 probe) must run through any wrapper. */
    @Override
    public StoreCapabilities verify() throws BackendException {
        return delegate.verify();
    }

    @Override
    public String describe() {
        return delegate.describe();
    }
}
