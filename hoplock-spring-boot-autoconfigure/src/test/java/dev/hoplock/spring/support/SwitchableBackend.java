package dev.hoplock.spring.support;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;

import java.time.Duration;
import java.util.Optional;

/** An in-memory store that can be made unreachable: every request then fails as a passing fault. */
public final class SwitchableBackend implements Backend {

    private final InMemoryBackend delegate = new InMemoryBackend();
    private volatile boolean unreachable;

    public SwitchableBackend(boolean unreachable) {
        this.unreachable = unreachable;
    }

    public void setUnreachable(boolean unreachable) {
        this.unreachable = unreachable;
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        check();
        return delegate.read(key, timeout);
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        check();
        return delegate.write(key, expected, content, timeout);
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        check();
        return delegate.delete(key, expected, timeout);
    }

    private void check() throws BackendException {
        if (unreachable) {
            throw new BackendException(BackendException.Kind.UNREACHABLE, "test store is unreachable");
        }
    }

    @Override
    public String describe() {
        return "switchable";
    }
}
