package dev.hoplock.spring.support;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/** A backend decorator that counts every request, to prove that a code path makes none. */
public final class CountingBackend implements Backend {

    private final Backend delegate;
    private final AtomicLong reads = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong deletes = new AtomicLong();

    public CountingBackend(Backend delegate) {
        this.delegate = delegate;
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        reads.incrementAndGet();
        return delegate.read(key, timeout);
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        writes.incrementAndGet();
        return delegate.write(key, expected, content, timeout);
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        deletes.incrementAndGet();
        return delegate.delete(key, expected, timeout);
    }

    @Override
    public StoreCapabilities verify() throws BackendException {
        return delegate.verify();
    }

    @Override
    public String describe() {
        return "counting " + delegate.describe();
    }

    /** Requests so far. */
    public long requests() {
        return reads.get() + writes.get() + deletes.get();
    }

    public long reads() {
        return reads.get();
    }
}
