package dev.hoplock.jdbc;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;

import java.time.Duration;
import java.util.Optional;

/**
 * A real backend behind a switch: while paused, every call fails without reaching the store, as for a process that
 * is frozen or cut off. Used to make a leader lose its lease while its worker thread is held elsewhere.
 */
final class PausableBackend implements Backend {

    private final Backend target;
    private volatile boolean paused;

    PausableBackend(Backend target) {
        this.target = target;
    }

    void pause() {
        paused = true;
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        check();
        return target.read(key, timeout);
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        check();
        return target.write(key, expected, content, timeout);
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        check();
        return target.delete(key, expected, timeout);
    }

    @Override
    public String describe() {
        return "pausable " + target.describe();
    }

    private void check() throws BackendException {
        if (paused) {
            throw new BackendException(BackendException.Kind.UNREACHABLE, "paused: the store is out of reach");
        }
    }
}
