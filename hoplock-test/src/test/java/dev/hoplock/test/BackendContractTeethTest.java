package dev.hoplock.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The contract case of issue 19 defect 4 has teeth: over a store whose handles are a counter of its container, which
 * restarts when the container is re-created (as {@code _seq_no} does in a new Elasticsearch / OpenSearch index), it
 * fails; over the same store with a counter that survives the re-creation, it passes.
 */
class BackendContractTeethTest {

    @Test
    void aStoreWhoseHandlesRestartWithItsContainerFailsTheIncarnationCase() throws Exception {
        Contract contract = new Contract(new CounterStore(true));
        contract.openBackend();

        Throwable failure = catchThrowable(
                contract::aWriteConditionalOnAHandleFromAnEarlierIncarnationOfTheStoreNeverApplies);

        assertThat(failure).as("the incarnation case over a store whose handles restart")
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("from the earlier incarnation")
                .hasMessageContaining("Written[handle=Handle[v");
    }

    @Test
    void theSameStoreWithHandlesThatSurviveTheReCreationPassesIt() throws Exception {
        Contract contract = new Contract(new CounterStore(false));
        contract.openBackend();

        assertThatCode(contract::aWriteConditionalOnAHandleFromAnEarlierIncarnationOfTheStoreNeverApplies)
                .doesNotThrowAnyException();
    }

    /** The contract over one {@link CounterStore}; not a test class of its own (surefire skips nested classes). */
    private static final class Contract extends BackendContractTest {
        private final CounterStore store;

        Contract(CounterStore store) {
            this.store = store;
        }

        @Override
        protected Backend backend() {
            return store;
        }

        @Override
        protected void recreateContainer() {
            store.recreate();
        }
    }

    /**
     * A linearisable map whose handles are {@code v<n>}; {@link #recreate()} empties it and, if {@code restarts},
     * starts the counter again at 1.
     */
    private static final class CounterStore implements Backend {
        private final boolean restarts;
        private final Map<String, StoredObject> objects = new HashMap<>();
        private long counter;

        CounterStore(boolean restarts) {
            this.restarts = restarts;
        }

        synchronized void recreate() {
            objects.clear();
            if (restarts) {
                counter = 0;
            }
        }

        @Override
        public synchronized Optional<StoredObject> read(String key, Duration timeout) {
            return Optional.ofNullable(objects.get(key));
        }

        @Override
        public synchronized WriteResult write(String key, Handle expected, byte[] content, Duration timeout) {
            StoredObject current = objects.get(key);
            if (expected.isNone() ? current != null : current == null || !current.handle().equals(expected)) {
                return current == null ? WriteResult.notFound() : WriteResult.preconditionFailed();
            }
            Handle handle = Handle.of("v" + ++counter);
            objects.put(key, new StoredObject(content.clone(), handle));
            return WriteResult.written(handle);
        }

        @Override
        public synchronized DeleteResult delete(String key, Handle expected, Duration timeout) {
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
    }
}
