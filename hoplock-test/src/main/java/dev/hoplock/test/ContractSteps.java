package dev.hoplock.test;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.StoredObject;
import java.time.Duration;

/**
 * What the case classes of one {@link BackendContractTest} run with: the store under test and the test's own
 * settings and helpers ({@link BackendContractTest#timeout()}, {@link BackendContractTest#newKey()}, ...), called on
 * the test so that a subclass's overrides apply. One instance per test method.
 */
abstract class ContractSteps {

    final BackendContractTest test;
    final Backend store;

    ContractSteps(BackendContractTest test) {
        this.test = test;
        this.store = test.store();
    }

    final Duration timeout() {
        return test.timeout();
    }

    final String newKey() {
        return test.newKey();
    }

    final Handle create(String key, String content) throws BackendException {
        return test.create(key, content);
    }

    final StoredObject read(String key) throws BackendException {
        return test.read(key);
    }

    final void assertStored(String key, String content, Handle handle) throws BackendException {
        test.assertStored(key, content, handle);
    }

    final void assertStored(String key, byte[] content, Handle handle) throws BackendException {
        test.assertStored(key, content, handle);
    }

    final void requireCapability(Capability capability) throws BackendException {
        test.requireCapability(capability);
    }
}
