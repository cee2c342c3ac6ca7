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

/**
 * An in-memory store that answers reads but refuses every write and delete with access denied, as a bucket whose
 * policy lacks {@code s3:PutObject}, or a directory without write permission, does. Writes can be allowed again.
 */
public final class ReadOnlyBackend implements Backend {

    private final InMemoryBackend delegate = new InMemoryBackend();
    private volatile boolean readOnly = true;

    public void setReadOnly(boolean readOnly) {
        this.readOnly = readOnly;
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        return delegate.read(key, timeout);
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        check("create " + key);
        return delegate.write(key, expected, content, timeout);
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        check("delete " + key);
        return delegate.delete(key, expected, timeout);
    }

    private void check(String what) throws BackendException {
        if (readOnly) {
            throw new BackendException(BackendException.Kind.ACCESS_DENIED, what + " failed: permission denied");
        }
    }

    @Override
    public String describe() {
        return "read-only test store";
    }
}
