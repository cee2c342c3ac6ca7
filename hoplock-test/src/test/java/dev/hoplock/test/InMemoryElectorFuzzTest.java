package dev.hoplock.test;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;

/** The elector fuzz run over {@link InMemoryBackend}. */
class InMemoryElectorFuzzTest extends ElectorFuzzTest {

    @Override
    protected Backend backend() {
        return new InMemoryBackend();
    }
}
