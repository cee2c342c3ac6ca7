package dev.hoplock.spring;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.StoreCapabilities;

import java.util.Objects;

/**
 * A base for the backend a {@link BackendDecorator} returns: it forwards {@link Backend#verify()} and
 * {@link Backend#describe()} to the wrapped store, as the decorator contract requires (the elector verifies the store
 * through the decorated backend before it campaigns, and the default {@code verify()} checks nothing), so that a
 * subclass only implements the requests it observes.
 *
 * <p>Guarantees: {@link #verify()} and {@link #describe()} return exactly what the delegate returns, or throw what it
 * throws.
 */
public abstract class DelegatingBackend implements Backend {

    /** The wrapped store. */
    protected final Backend delegate;

    protected DelegatingBackend(Backend delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
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
