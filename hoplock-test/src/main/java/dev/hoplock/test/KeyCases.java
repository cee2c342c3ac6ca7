package dev.hoplock.test;

import static dev.hoplock.test.BackendContractTest.bytes;
import static dev.hoplock.test.BackendContractTest.refused;
import static dev.hoplock.test.BackendContractTest.written;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.LeaseKeys;
import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.WriteResult.Refusal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The steps of the key cases of a {@link BackendContractTest} (the test methods of the same names): keys that share
 * prefixes or differ only in case are independent, many keys keep their own content, the longest valid key and
 * every key character work, invalid and overlong keys are rejected.
 */
final class KeyCases extends ContractSteps {

    KeyCases(BackendContractTest test) {
        super(test);
    }

    void keysWithSharedPrefixesAreIndependent() throws BackendException {
        String base = newKey();
        String parent = base + "/elections";
        String a = parent + "/a";
        String b = parent + "/b";
        String child = a + "/deeper";

        Handle hParent = create(parent, "parent");
        Handle hA = create(a, "a");
        Handle hB = create(b, "b");
        Handle hChild = create(child, "child");

        Handle hA2 = written(store.write(a, hA, bytes("a2"), timeout()));
        assertThat(store.write(b, hA2, bytes("b2"), timeout()))
                .as("a handle of one key must not match another key").isEqualTo(refused(Refusal.PRECONDITION_FAILED));

        assertStored(parent, "parent", hParent);
        assertStored(a, "a2", hA2);
        assertStored(b, "b", hB);
        assertStored(child, "child", hChild);
    }

    void keysWithSharedPrefixesAreIndependentForDeletes() throws BackendException {
        requireCapability(Capability.CONDITIONAL_DELETE);
        String parent = newKey() + "/elections";
        String a = parent + "/a";
        String b = parent + "/b";
        Handle hParent = create(parent, "parent");
        Handle hA = create(a, "a");
        Handle hB = create(b, "b");

        assertThat(store.delete(parent, hA, timeout())).isEqualTo(DeleteResult.PRECONDITION_FAILED);
        assertThat(store.delete(b, hB, timeout())).isEqualTo(DeleteResult.DELETED);

        assertStored(parent, "parent", hParent);
        assertStored(a, "a", hA);
        assertThat(store.read(b, timeout())).isEmpty();
    }

    void keysThatDifferOnlyInCaseAreIndependent() throws BackendException {
        String base = newKey();
        Handle lower = create(base + "/leader", "lower");
        Handle upper = create(base + "/LEADER", "upper");

        assertStored(base + "/leader", "lower", lower);
        assertStored(base + "/LEADER", "upper", upper);
    }

    void manyKeysInOneStoreKeepTheirOwnContent() throws BackendException {
        String base = newKey();
        Map<String, Handle> handles = new LinkedHashMap<>();
        for (int i = 0; i < 40; i++) {
            String key = base + "/elections/e-" + i;
            handles.put(key, create(key, "content of " + key));
        }
        for (Map.Entry<String, Handle> entry : handles.entrySet()) {
            assertStored(entry.getKey(), "content of " + entry.getKey(), entry.getValue());
        }
    }

    void longestValidKeyAndAllKeyCharactersWork() throws BackendException {
        String base = newKey();
        String odd = base + "/Az09._-/x.y_z-w/...a/-";
        Handle hOdd = create(odd, "odd");

        String longest = base + "/" + "k".repeat(LeaseKeys.MAX_LENGTH - base.length() - 1);
        assertThat(longest).hasSize(LeaseKeys.MAX_LENGTH);
        Handle hLongest = create(longest, "longest");

        assertStored(odd, "odd", hOdd);
        assertStored(longest, "longest", hLongest);
    }

    void invalidKeysAreRejected(String key) {
        assertThatThrownBy(() -> store.read(key, timeout())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.write(key, Handle.NONE, bytes("x"), timeout()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.delete(key, Handle.of("h"), timeout()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    void overlongKeyIsRejected() {
        String key = "k".repeat(LeaseKeys.MAX_LENGTH + 1);

        assertThatThrownBy(() -> store.read(key, timeout())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.write(key, Handle.NONE, bytes("x"), timeout()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.delete(key, Handle.of("h"), timeout()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
