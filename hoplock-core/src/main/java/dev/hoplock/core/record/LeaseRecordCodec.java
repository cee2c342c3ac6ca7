package dev.hoplock.core.record;

import dev.hoplock.core.json.Json;
import dev.hoplock.core.json.JsonSyntaxException;
import org.jspecify.annotations.Nullable;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Encodes and decodes lease records in the JSON form Go hoplock reads and writes.
 *
 * <p>Guarantees on write: keys {@code generation}, {@code expires_at}, {@code owner} (omitted when empty, as Go's
 * {@code omitempty}) and {@code nonce}, in that order; {@code expires_at} in UTC with seconds always present, which
 * Go's RFC 3339 parser accepts. On read: every form Go writes (any zone offset Go can write, {@code Z} or
 * {@code ±hh:mm} up to {@code ±23:59}, beyond the {@code ±18:00} of Java's {@code ZoneOffset}; 0 to 9 fraction
 * digits; omitted owner; unknown fields of any shape; keys in any case); missing fields take Go's zero values.
 * Anything else (not JSON, a non-integer or negative generation, a time without seconds, more than
 * {@link #MAX_SIZE} bytes, invalid UTF-8) is a {@link MalformedLeaseRecordException} that says what is wrong.
 */
public final class LeaseRecordCodec {

    /** Records larger than this are refused unread. Real records are under 200 bytes. */
    public static final int MAX_SIZE = 64 * 1024;

    /** The date and time of an RFC 3339 timestamp, before its zone offset (parsed by {@link #offsetSeconds}). */
    private static final DateTimeFormatter RFC_3339_LOCAL = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .appendPattern("uuuu-MM-dd'T'HH:mm:ss")
            .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
            .toFormatter()
            .withResolverStyle(ResolverStyle.STRICT);
    /** {@code ±hh:mm}: the only numeric offset form of RFC 3339. */
    private static final int NUMERIC_OFFSET_LENGTH = 6;
    /** Go writes and reads offsets up to 23:59 either way (Java's {@code ZoneOffset} only up to 18:00). */
    private static final int MAX_OFFSET_HOURS = 23;

    private LeaseRecordCodec() {
    }

    /** The JSON bytes of {@code record}. */
    public static byte[] encode(LeaseRecord record) {
        StringBuilder json = new StringBuilder(160);
        json.append("{\"generation\":").append(record.generation());
        json.append(",\"expires_at\":\"").append(DateTimeFormatter.ISO_INSTANT.format(record.expiresAt())).append('"');
        if (!record.owner().isEmpty()) {
            json.append(",\"owner\":");
            Json.quoteAsGo(json, record.owner());
        }
        if (!record.nonce().isEmpty()) {
            json.append(",\"nonce\":");
            Json.quoteAsGo(json, record.nonce());
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
        Map<String, @Nullable Object> members = members(text);
        long generation = generation(members.get("generation"));
        Instant expiresAt = expiresAt(members.get("expires_at"));
        String owner = optionalString(members.get("owner"), "owner");
        String nonce = optionalString(members.get("nonce"), "nonce");
        return new LeaseRecord(generation, expiresAt, owner, nonce);
    }

    /** Parses an RFC 3339 timestamp with seconds, as Go's {@code time.RFC3339Nano} accepts it. */
    public static Instant parseTime(String text) throws MalformedLeaseRecordException {
        boolean utc = text.endsWith("Z") || text.endsWith("z");
        int offsetStart = utc ? text.length() - 1 : text.length() - NUMERIC_OFFSET_LENGTH;
        Integer offset = offsetStart < 1 ? null : offsetSeconds(text.substring(offsetStart));
        if (offset == null) {
            throw notRfc3339(text);
        }
        try {
            // Offsets beyond ±18:00 have no ZoneOffset, so shift the local time by hand.
            return LocalDateTime.parse(text.substring(0, offsetStart), RFC_3339_LOCAL).toInstant(ZoneOffset.UTC)
                    .minusSeconds(offset);
        } catch (DateTimeException | ArithmeticException e) {
            throw notRfc3339(text);
        }
    }

    /**
     * The seconds east of UTC of an RFC 3339 offset: {@code Z} (either case), or {@code ±hh:mm} with hours 00 to 23 and
     * minutes 00 to 59, as Go's parser takes it; null for anything else.
     */
    private static @Nullable Integer offsetSeconds(String offset) {
        if (offset.equalsIgnoreCase("Z")) {
            return 0;
        }
        if (offset.length() != NUMERIC_OFFSET_LENGTH || offset.charAt(3) != ':') {
            return null;
        }
        char sign = offset.charAt(0);
        int hours = twoDigits(offset, 1);
        int minutes = twoDigits(offset, 4);
        if (sign != '+' && sign != '-' || hours < 0 || hours > MAX_OFFSET_HOURS || minutes < 0 || minutes > 59) {
            return null;
        }
        int seconds = hours * 3600 + minutes * 60;
        return sign == '-' ? -seconds : seconds;
    }

    /** The two-digit number at {@code at}, or -1 when either character is not an ASCII digit. */
    private static int twoDigits(String text, int at) {
        char tens = text.charAt(at);
        char units = text.charAt(at + 1);
        if (tens < '0' || tens > '9' || units < '0' || units > '9') {
            return -1;
        }
        return (tens - '0') * 10 + (units - '0');
    }

    private static MalformedLeaseRecordException notRfc3339(String text) {
        return new MalformedLeaseRecordException("expires_at '" + abbreviate(text) + "' is not an RFC 3339 time with"
                + " seconds and a zone (Z or ±hh:mm up to ±23:59; for example 2026-09-08T20:37:00.123Z)");
    }

    /**
     * The members of the JSON object in {@code text}, names folded to lower case (Go matches them case-insensitively),
     * the last one in the text winning.
     */
    private static Map<String, @Nullable Object> members(String text) throws MalformedLeaseRecordException {
        Map<String, @Nullable Object> parsed;
        try {
            parsed = Json.parseObject(text);
        } catch (JsonSyntaxException e) {
            if (!startsAsObject(text)) {
                throw new MalformedLeaseRecordException("not a JSON object");
            }
            throw new MalformedLeaseRecordException("not valid JSON: " + e.reason() + " at offset " + e.position());
        } catch (IllegalArgumentException e) {
            throw new MalformedLeaseRecordException("not a JSON object");
        }
        Map<String, @Nullable Object> members = new HashMap<>();
        // In the order of each name's last appearance, so that a name met again in another case replaces it.
        parsed.forEach((name, value) -> members.put(name.toLowerCase(Locale.ROOT), value));
        return members;
    }

    /** True when the first character after JSON white space opens an object. */
    private static boolean startsAsObject(String text) {
        int at = 0;
        while (at < text.length() && " \t\n\r".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        return at < text.length() && text.charAt(at) == '{';
    }

    private static long generation(@Nullable Object value) throws MalformedLeaseRecordException {
        if (value == null) {
            return 0;
        }
        if (!(value instanceof Json.NumberLiteral number) || !number.isIntegerLiteral()) {
            throw new MalformedLeaseRecordException("generation must be a JSON integer, found "
                    + describe(value));
        }
        long generation;
        try {
            generation = Long.parseLong(number.text());
        } catch (NumberFormatException e) {
            throw new MalformedLeaseRecordException("generation " + abbreviate(number.text()) + " does not fit in 64 bits");
        }
        if (generation < 0) {
            throw new MalformedLeaseRecordException("generation " + generation + " is negative; fencing tokens start at 1");
        }
        return generation;
    }

    private static Instant expiresAt(@Nullable Object value) throws MalformedLeaseRecordException {
        if (value == null) {
            return LeaseRecord.ZERO_TIME;
        }
        if (!(value instanceof String text)) {
            throw new MalformedLeaseRecordException("expires_at must be an RFC 3339 string, found " + describe(value));
        }
        return parseTime(text);
    }

    private static String optionalString(@Nullable Object value, String name) throws MalformedLeaseRecordException {
        if (value == null) {
            return "";
        }
        if (!(value instanceof String text)) {
            throw new MalformedLeaseRecordException(name + " must be a string, found " + describe(value));
        }
        return text;
    }

    private static String describe(Object value) {
        if (value instanceof String text) {
            return "the string \"" + abbreviate(text) + "\"";
        }
        if (value instanceof Json.NumberLiteral number) {
            return "the number " + abbreviate(number.text());
        }
        if (value instanceof Map) {
            return "an object";
        }
        return value instanceof List ? "an array" : value.toString();
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
