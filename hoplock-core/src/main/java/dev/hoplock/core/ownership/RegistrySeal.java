package dev.hoplock.core.ownership;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The end line of a registry version: {@code end <crc32c>}, the CRC-32C (8 lower-case hex digits) of every byte before
 * that line. It makes a registry self-delimiting, so that only bytes written as one whole version decode.
 *
 * <p>Why: a store may serve a read torn. S3Mock 5.2.0 answers a GET with the ETag and length of one version and streams
 * the body of the next one (replaced by a PUT it served meanwhile), cut at the old length; a join appends one member
 * line, so the cut falls exactly at a line end. Without an end line that decoded as "the new epoch without the new
 * member", a version the store never held, which a member then adopted as its view (issue 19: two acting owners of one
 * key). Rules M2 to M4 presume that a view is a version the store held; this is where that premise is checked.
 *
 * <p>Guarantees: {@link #open} accepts exactly the outputs of {@link #seal}; it refuses every strict prefix of one (the
 * end line or its newline is missing or cut), and bytes spliced from two versions unless the CRC collides (odds of
 * 2^-32 for a random splice; CRC-32C detects every splice that changes at most 32 consecutive bits).
 */
final class RegistrySeal {

    private static final String END = "end ";
    private static final int END_LINE_LENGTH = END.length() + 8 + 1;

    /** Thrown by {@link #open} for bytes that are not one whole registry version: a torn read or a damaged object. */
    static final class TornRegistryException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        TornRegistryException(String reason) {
            super("the registry object is incomplete or torn (" + reason + "): the store served bytes that were"
                    + " never written as one version, as S3Mock does when a GET races a PUT; the read is ignored");
        }
    }

    private RegistrySeal() {
    }

    /** {@code body} (ending with a newline) followed by its end line. */
    static byte[] seal(byte[] body) {
        if (body.length == 0 || body[body.length - 1] != '\n') {
            throw new IllegalArgumentException("a registry body ends with a newline");
        }
        byte[] end = (END + hex(crc(body, body.length)) + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] sealed = new byte[body.length + end.length];
        System.arraycopy(body, 0, sealed, 0, body.length);
        System.arraycopy(end, 0, sealed, body.length, end.length);
        return sealed;
    }

    /** The body of a sealed registry version (its bytes before the end line), or a {@link TornRegistryException}. */
    static byte[] open(byte[] sealed) {
        int bodyLength = sealed.length - END_LINE_LENGTH;
        if (bodyLength < 1 || sealed[sealed.length - 1] != '\n' || sealed[bodyLength - 1] != '\n') {
            throw new TornRegistryException("its end line is missing or cut");
        }
        String end = new String(sealed, bodyLength, END_LINE_LENGTH - 1, StandardCharsets.US_ASCII);
        if (!end.startsWith(END)) {
            throw new TornRegistryException("its end line is missing or cut");
        }
        long stated;
        try {
            stated = Long.parseLong(end.substring(END.length()), 16);
        } catch (NumberFormatException e) {
            throw new TornRegistryException("its end line is damaged");
        }
        long actual = crc(sealed, bodyLength);
        if (stated != actual) {
            throw new TornRegistryException("its checksum " + hex(actual) + " does not match the stated " + hex(stated));
        }
        byte[] body = new byte[bodyLength];
        System.arraycopy(sealed, 0, body, 0, bodyLength);
        return body;
    }

    private static long crc(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return crc.getValue();
    }

    private static String hex(long value) {
        return String.format("%08x", value);
    }
}
