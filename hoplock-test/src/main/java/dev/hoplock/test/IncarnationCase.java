package dev.hoplock.test;

import static dev.hoplock.test.BackendContractTest.bytes;
import static dev.hoplock.test.BackendContractTest.refused;
import static dev.hoplock.test.BackendContractTest.written;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.WriteResult.Refusal;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The steps of {@link BackendContractTest#aWriteConditionalOnAHandleFromAnEarlierIncarnationOfTheStoreNeverApplies()}
 * (its Javadoc says what they check and why): a key written a few times, the container re-created, the same sequence
 * repeated, and every handle of the earlier incarnation tried before each step of the new one.
 */
final class IncarnationCase extends ContractSteps {

    private IncarnationCase(BackendContractTest test) {
        super(test);
    }

    static void run(BackendContractTest test) throws Exception {
        new IncarnationCase(test).run();
    }

    private void run() throws Exception {
        String key = newKey();
        int steps = 4;
        test.recreateContainer();
        List<Handle> earlier = new ArrayList<>();
        earlier.add(written(store.write(key, Handle.NONE, bytes("incarnation 1, version 0, " + UUID.randomUUID()),
                timeout())));
        for (int version = 1; version < steps; version++) {
            earlier.add(written(store.write(key, earlier.get(version - 1),
                    bytes("incarnation 1, version " + version + ", " + UUID.randomUUID()), timeout())));
        }

        test.recreateContainer();
        assertThat(store.read(key, timeout())).as("the key after its container was deleted and created again")
                .isEmpty();
        boolean deletes = store.verify().has(Capability.CONDITIONAL_DELETE);
        for (Handle stale : earlier) {
            assertThat(store.write(key, stale, bytes("stale write " + UUID.randomUUID()), timeout()))
                    .as("a write conditional on %s from the earlier incarnation, to a key the new one lacks", stale)
                    .isEqualTo(refused(Refusal.NOT_FOUND));
            assertThat(store.read(key, timeout())).as("a refused write must not create the key").isEmpty();
        }
        byte[] content = bytes("incarnation 2, version 0, " + UUID.randomUUID());
        Handle current = written(store.write(key, Handle.NONE, content, timeout()));
        for (int version = 1; version <= steps; version++) {
            for (Handle stale : earlier) {
                assertThat(store.write(key, stale, bytes("stale write " + UUID.randomUUID()), timeout()))
                        .as("a write conditional on %s from the earlier incarnation, with the key at %s of the new one",
                                stale, current)
                        .isEqualTo(refused(Refusal.PRECONDITION_FAILED));
                if (deletes) {
                    assertThat(store.delete(key, stale, timeout()))
                            .as("a delete conditional on %s from the earlier incarnation, with the key at %s of the"
                                    + " new one", stale, current)
                            .isEqualTo(DeleteResult.PRECONDITION_FAILED);
                }
                assertStored(key, content, current);
            }
            if (version < steps) {
                content = bytes("incarnation 2, version " + version + ", " + UUID.randomUUID());
                current = written(store.write(key, current, content, timeout()));
            }
        }
    }
}
