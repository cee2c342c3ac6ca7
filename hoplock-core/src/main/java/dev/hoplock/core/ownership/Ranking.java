package dev.hoplock.core.ownership;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * The rank rule of rendezvous hashing, in one place: the weight of a member for a key, and the order of two members
 * for one key (higher weight first; equal weights to the smaller id in UTF-8 byte order, which is Go's string order
 * and the order of Unicode code points; {@link String#compareTo}, which compares UTF-16 units, differs from it when a
 * character above U+FFFF meets one in U+E000 to U+FFFF).
 */
final class Ranking {

    static final int DIGEST_LENGTH = 32;

    private static final VarHandle BIG_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private Ranking() {
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256, which every Java platform must provide", e);
        }
    }

    /**
     * The first 8 bytes of SHA-256(key ‖ 0x00 ‖ id), big-endian, as an unsigned 64-bit number held in a {@code long}
     * (compare with {@link Long#compareUnsigned}). {@code sha256} is reset on return; {@code scratch} holds at least
     * {@value #DIGEST_LENGTH} bytes and is overwritten.
     */
    static long weight(MessageDigest sha256, byte[] key, byte[] id, byte[] scratch) {
        sha256.update(key);
        sha256.update((byte) 0);
        sha256.update(id);
        try {
            sha256.digest(scratch, 0, DIGEST_LENGTH);
        } catch (DigestException e) {
            throw new IllegalStateException("SHA-256 did not produce " + DIGEST_LENGTH + " bytes", e);
        }
        return (long) BIG_ENDIAN_LONG.get(scratch, 0);
    }

    /** Go's order of two ids: their UTF-8 bytes compared unsigned, byte by byte, a prefix first. */
    static int compareIds(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    /**
     * The rank order of two members for one key: negative when ({@code weightA}, {@code idA}) ranks first (higher
     * weight, or equal weight and smaller id), positive when ({@code weightB}, {@code idB}) does, 0 for equal ids.
     */
    static int compare(long weightA, byte[] idA, long weightB, byte[] idB) {
        int byWeight = Long.compareUnsigned(weightB, weightA);
        return byWeight != 0 ? byWeight : compareIds(idA, idB);
    }
}
