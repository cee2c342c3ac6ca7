package dev.hoplock.test;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;

/** Runs the named-lock contract against {@link InMemoryBackend}. */
class InMemoryLockContractTest extends LockContractTest {

    private final InMemoryBackend store = new InMemoryBackend();

    @Override
    protected Backend backend() {
        return store;
    }
}
