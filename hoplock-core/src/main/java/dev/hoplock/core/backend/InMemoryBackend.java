package dev.hoplock.core.backend;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A linearisable store in this process's memory, for tests and single-process use.
 *
 * <p>Guarantees: every operation runs under one lock, so two electors sharing an instance compete exactly as they
 * would over a remote store. Handles are unique per write for the life of the instance. Nothing survives the
 * process.
 */
public final class InMemoryBackend implements Backend {

    private final Map<String, StoredObject> objects = new HashMap<>();
    private final AtomicLong versions = new AtomicLong();

    @Override
    public synchronized Optional<StoredObject> read(String key, Duration timeout) {
        LeaseKeys.validate(key);
        return Optional.ofNullable(objects.get(key));
    }

    @Override
    public synchronized WriteResult write(String key, Handle expected, byte[] content, Duration timeout) {
        LeaseKeys.validate(key);
        StoredObject current = objects.get(key);
        if (expected.isNone()) {
            if (current != null) {
                return WriteResult.preconditionFailed();
            }
        } else if (current == null) {
            return WriteResult.notFound();
        } else if (!current.handle().equals(expected)) {
            return WriteResult.preconditionFailed();
        }
        Handle handle = Handle.of("v" + versions.incrementAndGet());
        objects.put(key, new StoredObject(content, handle));
        return WriteResult.written(handle);
    }

    @Override
    public synchronized DeleteResult delete(String key, Handle expected, Duration timeout) {
        LeaseKeys.validate(key);
        StoredObject current = objects.get(key);
        if (current == null) {
            return DeleteResult.NOT_FOUND;
        }
        if (!current.handle().equals(expected)) {
            return DeleteResult.PRECONDITION_FAILED;
        }
        objects.remove(key);
        return DeleteResult.DELETED;
    }

    /** Replaces the object under {@code key} unconditionally (for tests that plant records). */
    public synchronized Handle put(String key, byte[] content) {
        LeaseKeys.validate(key);
        Handle handle = Handle.of("v" + versions.incrementAndGet());
        objects.put(key, new StoredObject(content, handle));
        return handle;
    }

    /**
     * Removes every object at once, as deleting the whole store and creating it again would (for tests of an outside
     * re-creation). Handles go on counting, so no handle of a removed object is ever handed out again, and a write
     * conditional on one is refused.
     */
    public synchronized void clear() {
        objects.clear();
    }

    @Override
    public String describe() {
        return "memory";
    }
}
