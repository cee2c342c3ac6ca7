package dev.hoplock.test;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;

/** Runs the backend contract against {@link InMemoryBackend}; all tests share one instance, each in its own keys. */
class InMemoryBackendContractTest extends BackendContractTest {

    private static final InMemoryBackend SHARED = new InMemoryBackend();

    @Override
    protected Backend backend() {
        return SHARED;
    }

    /** A fresh map: {@link InMemoryBackend#clear()}. */
    @Override
    protected void recreateContainer() {
        SHARED.clear();
    }
}
