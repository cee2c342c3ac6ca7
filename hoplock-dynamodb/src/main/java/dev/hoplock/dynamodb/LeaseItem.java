package dev.hoplock.dynamodb;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.record.LeaseRecordCodec;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;

/**
 * One lease as a DynamoDB item: the partition key (the item key), {@value #RECORD} (binary: the lease record's bytes,
 * exactly as the elector wrote them, the same bytes every other store keeps) and {@value #VERSION} (a string of 128
 * random bits, new at every write and never reused, which is the {@link Handle}). A version that is random rather than
 * counted stays unique across a deleted and re-created table, so a stale holder's handle never matches a new item.
 */
final class LeaseItem {

    /** The attribute with the record's bytes. */
    static final String RECORD = "record";
    /** The attribute with the version, the handle of compare-and-swap. */
    static final String VERSION = "version";

    private static final SecureRandom RANDOM = new SecureRandom();

    private LeaseItem() {
    }

    /** A version no write has used before: 128 random bits, base64url. */
    static String newVersion() {
        byte[] bits = new byte[16];
        RANDOM.nextBytes(bits);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bits);
    }

    /** The item for {@code content} at {@code version}; the bytes are copied. */
    static Map<String, AttributeValue> item(LeaseTable table, String itemKey, byte[] content, String version) {
        return Map.of(table.keyAttribute(), AttributeValue.fromS(itemKey),
                RECORD, AttributeValue.fromB(SdkBytes.fromByteArray(content)),
                VERSION, AttributeValue.fromS(version));
    }

    /** The version of an item as DynamoDB returned it, or null when it has none. */
    static @Nullable String version(Map<String, AttributeValue> item) {
        AttributeValue version = item.get(VERSION);
        return version == null ? null : version.s();
    }

    /**
     * The stored object of an item: at most {@code MAX_SIZE + 1} bytes of the record (more is no lease record), and
     * the version as its handle.
     *
     * @throws BackendException MISCONFIGURED, naming the item, when it lacks a binary record or a version (an item
     *                          written by something other than hoplock)
     */
    static StoredObject stored(LeaseTable table, String itemKey, Map<String, AttributeValue> item)
            throws BackendException {
        AttributeValue record = item.get(RECORD);
        String version = version(item);
        if (record == null || record.b() == null || version == null || version.isEmpty()) {
            throw new BackendException(BackendException.Kind.MISCONFIGURED, "the " + table.item(itemKey)
                    + " is not a hoplock lease: it lacks the binary attribute '" + RECORD + "' or the string attribute '"
                    + VERSION + "' (attributes: " + item.keySet() + "); give hoplock a table (or prefix) of its own,"
                    + " or delete the item");
        }
        byte[] bytes = record.b().asByteArrayUnsafe();
        int keep = Math.min(bytes.length, LeaseRecordCodec.MAX_SIZE + 1);
        return new StoredObject(Arrays.copyOf(bytes, keep), Handle.of(version));
    }
}
