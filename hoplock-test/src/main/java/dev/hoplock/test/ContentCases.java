package dev.hoplock.test;

import static dev.hoplock.test.BackendContractTest.bytes;
import static dev.hoplock.test.BackendContractTest.written;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.record.LeaseRecordCodec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

/**
 * The steps of the content cases of a {@link BackendContractTest} (the test methods of the same names): non-ASCII
 * text, every byte value and large content round-trip byte-exact; an object larger than a record reads as its start
 * with its real handle; the store keeps no reference to the caller's array.
 */
final class ContentCases extends ContractSteps {

    ContentCases(BackendContractTest test) {
        super(test);
    }

    void nonAsciiContentRoundTrips() throws BackendException {
        String key = newKey();
        byte[] content = "{\"owner\":\"n\u00f8de-\u00e9\u00e8-\u65e5\u672c-\ud83d\udc07\",\"generation\":1}"
                .getBytes(StandardCharsets.UTF_8);

        Handle handle = written(store.write(key, Handle.NONE, content, timeout()));

        assertThat(read(key).content()).isEqualTo(content);
        assertThat(read(key).handle()).isEqualTo(handle);
    }

    void everyByteValueRoundTrips() throws BackendException {
        String key = newKey();
        byte[] content = new byte[512];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) i;
        }

        Handle handle = written(store.write(key, Handle.NONE, content, timeout()));

        assertThat(read(key).content()).isEqualTo(content);
        assertThat(read(key).handle()).isEqualTo(handle);
    }

    void largeContentRoundTripsAndReplacesCompletely() throws BackendException {
        String key = newKey();
        byte[] large = new byte[60 * 1024];
        new Random(42).nextBytes(large);

        Handle first = written(store.write(key, Handle.NONE, large, timeout()));
        assertThat(read(key).content()).isEqualTo(large);
        assertThat(read(key).handle()).isEqualTo(first);

        Handle second = written(store.write(key, first, bytes("short"), timeout()));
        assertStored(key, "short", second);
    }

    void anObjectLargerThanARecordReadsAsItsStartWithItsRealHandle() throws BackendException {
        String key = newKey();
        byte[] huge = new byte[4 * LeaseRecordCodec.MAX_SIZE];
        new Random(7).nextBytes(huge);

        Handle handle = written(store.write(key, Handle.NONE, huge, timeout()));
        StoredObject stored = read(key);

        assertThat(stored.content().length).as("bytes read").isGreaterThan(LeaseRecordCodec.MAX_SIZE)
                .isLessThanOrEqualTo(huge.length);
        assertThat(stored.content()).isEqualTo(Arrays.copyOf(huge, stored.content().length));
        assertThat(stored.handle()).isEqualTo(handle);
        Handle replaced = written(store.write(key, stored.handle(), bytes("small"), timeout()));
        assertStored(key, "small", replaced);
    }

    void storeKeepsNoReferenceToCallersArray() throws BackendException {
        String key = newKey();
        byte[] content = bytes("original");
        Handle handle = written(store.write(key, Handle.NONE, content, timeout()));

        content[0] = 'X';

        assertStored(key, "original", handle);
    }
}
