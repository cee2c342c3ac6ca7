package dev.hoplock.core.record;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.Map;

/**
 * Encodes and decodes lease records in the JSON form Go hoplock reads and writes.
 *
 * <p>Guarantees on write: keys {@code generation}, {@code expires_at}, {@code owner} (omitted when empty, as Go's
 * {@code omitempty}) and {@code nonce}, in that order; {@code expires_at} in UTC with seconds always present, which
 * Go's RFC 3339 parser accepts. On read: every form Go writes (any zone offset, 0 to 9 fraction digits, omitted
 * owner, unknown fields of any shape, keys in any case); missing fields take Go's zero values. Anything else
 * (not JSON, a non-integer or negative generation, a time without seconds, more than {@link #MAX_SIZE} bytes,
 * invalid UTF-8) is a {@link MalformedLeaseRecordException} that says what is wrong.
 */
public final class LeaseRecordCodec {

    /** Records larger than this are refused unread. Real records are under 200 bytes. */
    public static final int MAX_SIZE = 64 * 1024;

    private static final DateTimeFormatter RFC_3339 = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .appendPattern("uuuu-MM-dd'T'HH:mm:ss")
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
            .appendOffset("+HH:MM", "Z")
            .toFormatter()
            .withResolverStyle(ResolverStyle.STRICT);

    private LeaseRecordCodec() {
    }

    /** The JSON bytes of {@code record}. */
    public static byte[] encode(LeaseRecord record) {
        StringBuilder json = new StringBuilder(160);
        json.append("{\"generation\":").append(record.generation());
        json.append(",\"expires_at\":\"").append(DateTimeFormatter.ISO_INSTANT.format(record.expiresAt())).append('"');
        if (!record.owner().isEmpty()) {
            json.append(",\"owner\":");
            appendString(json, record.owner());
        }
        if (!record.nonce().isEmpty()) {
            json.append(",\"nonce\":");
            appendString(json, record.nonce());
        }
        json.append('}');
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Parses {@code bytes} as a lease record. */
    public static LeaseRecord decode(byte[] bytes) throws MalformedLeaseRecordException {
        if (bytes.length > MAX_SIZE) {
            throw new MalformedLeaseRecordException("the object is larger than the limit of " + MAX_SIZE
                    + " bytes for a lease record (real records are under 200 bytes)");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new MalformedLeaseRecordException("the object is not UTF-8 text");
        }
        Map<String, JsonReader.Value> members = JsonReader.readObject(text);
        long generation = generation(members.get("generation"));
        Instant expiresAt = expiresAt(members.get("expires_at"));
        String owner = optionalString(members.get("owner"), "owner");
        String nonce = optionalString(members.get("nonce"), "nonce");
        return new LeaseRecord(generation, expiresAt, owner, nonce);
    }

    /** Parses an RFC 3339 timestamp with seconds, as Go's {@code time.RFC3339Nano} accepts it. */
    public static Instant parseTime(String text) throws MalformedLeaseRecordException {
        try {
            return OffsetDateTime.parse(text, RFC_3339).toInstant();
        } catch (DateTimeException e) {
            throw new MalformedLeaseRecordException("expires_at '" + abbreviate(text)
                    + "' is not an RFC 3339 time with seconds (for example 2026-09-08T20:37:00.123Z)");
        }
    }

    private static long generation(JsonReader.Value value) throws MalformedLeaseRecordException {
        if (value == null || value.kind() == JsonReader.Kind.NULL) {
            return 0;
        }
        if (value.kind() != JsonReader.Kind.NUMBER || !value.text().matches("-?[0-9]+")) {
            throw new MalformedLeaseRecordException("generation must be a JSON integer, found "
                    + describe(value));
        }
        long generation;
        try {
            generation = Long.parseLong(value.text());
        } catch (NumberFormatException e) {
            throw new MalformedLeaseRecordException("generation " + abbreviate(value.text()) + " does not fit in 64 bits");
        }
        if (generation < 0) {
            throw new MalformedLeaseRecordException("generation " + generation + " is negative; fencing tokens start at 1");
        }
        return generation;
    }

    private static Instant expiresAt(JsonReader.Value value) throws MalformedLeaseRecordException {
        if (value == null || value.kind() == JsonReader.Kind.NULL) {
            return LeaseRecord.ZERO_TIME;
        }
        if (value.kind() != JsonReader.Kind.STRING) {
            throw new MalformedLeaseRecordException("expires_at must be an RFC 3339 string, found " + describe(value));
        }
        return parseTime(value.text());
    }

    private static String optionalString(JsonReader.Value value, String name) throws MalformedLeaseRecordException {
        if (value == null || value.kind() == JsonReader.Kind.NULL) {
            return "";
        }
        if (value.kind() != JsonReader.Kind.STRING) {
            throw new MalformedLeaseRecordException(name + " must be a string, found " + describe(value));
        }
        return value.text();
    }

    private static String describe(JsonReader.Value value) {
        return switch (value.kind()) {
            case STRING -> "the string \"" + abbreviate(value.text()) + "\"";
            case NUMBER -> "the number " + abbreviate(value.text());
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            default -> value.text();
        };
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }

    private static void appendString(StringBuilder json, String value) {
        json.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&') {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
