package dev.hoplock.elasticsearch;

import dev.hoplock.core.json.Json;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * How the bytes of a lease object map to a search document and back: the one place that knows the document's fields
 * and the index mapping.
 *
 * <p>A lease record the codec can read becomes a document whose fields are the record's fields, so that it can be
 * read, searched and charted in Kibana or OpenSearch Dashboards, plus the exact bytes in {@value #RECORD}:
 * <pre>{@code
 * {"key":"elections/billing","generation":7,"expires_at":"2026-09-08T20:37:00.123456789Z","owner":"node-1",
 *  "nonce":"5f0c...","record":"{\"generation\":7,\"expires_at\":\"2026-09-08T20:37:00.123456789Z\",...}",
 *  "write_id":"0f6c2d4e9a8b4c1d8e7f6a5b4c3d2e1f"}
 * }</pre>
 * {@value #WRITE_ID} is the backend's own: a random id new on every write, part of the {@link SeqNoHandle}, which
 * every conditional swap and delete checks so that no handle from a deleted and re-created index ever matches.
 *
 * <p>Guarantees:
 * <ul>
 *   <li><b>Byte-exact</b>: {@link #content(Map)} of a stored document returns exactly the bytes {@link #encode} was
 *       given, whatever they are: UTF-8 text is kept in {@value #RECORD}, anything else (invalid UTF-8, binary) in
 *       {@value #RECORD_BASE64}. The readable fields are a view for people; reads never use them.</li>
 *   <li><b>Never refused by the mapping</b>: the readable fields are written only from a record the codec parsed,
 *       in the types the mapping declares; bytes that are no lease record (a corrupt object, a test's arbitrary
 *       bytes) are stored with {@value #KEY} and the exact bytes only, and the elector then reads them back as the
 *       corrupt record they are.</li>
 *   <li>A document without {@value #RECORD} or {@value #RECORD_BASE64} (written by hand) reads as its
 *       {@code _source} in JSON, so a hand-written {@code {"generation":..,"expires_at":..,"owner":..}} is a record
 *       the elector understands.</li>
 * </ul>
 */
final class LeaseDocument {

    static final String KEY = "key";
    static final String GENERATION = "generation";
    static final String EXPIRES_AT = "expires_at";
    static final String OWNER = "owner";
    static final String NONCE = "nonce";
    static final String RECORD = "record";
    static final String RECORD_BASE64 = "record_base64";
    static final String WRITE_ID = "write_id";

    /**
     * The body of the index creation request: one shard (a lease index holds a few small documents, and a
     * sequence number is unique only within a shard) and a strict mapping of exactly the fields above.
     * {@value #WRITE_ID} is kept in {@code _source} only (not indexed): the conditional update's script reads it
     * from there.
     */
    static final String INDEX_DEFINITION = """
            {"settings":{"index":{"number_of_shards":1}},
             "mappings":{"dynamic":"strict","properties":{
               "key":{"type":"keyword"},
               "generation":{"type":"long"},
               "expires_at":{"type":"date","format":"strict_date_optional_time"},
               "owner":{"type":"keyword","ignore_above":1024},
               "nonce":{"type":"keyword","ignore_above":1024},
               "record":{"type":"keyword","index":false,"doc_values":false},
               "record_base64":{"type":"binary"},
               "write_id":{"type":"keyword","index":false,"doc_values":false}}}}""";

    /** The mapping of {@value #WRITE_ID} alone, to add it to an index created without it. */
    static final String WRITE_ID_MAPPING = """
            {"properties":{"write_id":{"type":"keyword","index":false,"doc_values":false}}}""";

    private LeaseDocument() {
    }

    /** The document that stores {@code content} under {@code key}, written with the id {@code writeId}. */
    static byte[] encode(String key, byte[] content, String writeId) {
        StringBuilder json = new StringBuilder(content.length * 2 + 200);
        json.append('{');
        Json.quote(json.append('"').append(KEY).append("\":"), key);
        record(content).ifPresent(record -> {
            json.append(",\"").append(GENERATION).append("\":").append(record.generation());
            if (fitsDateField(record.expiresAt())) {
                Json.quote(json.append(",\"").append(EXPIRES_AT).append("\":"),
                        DateTimeFormatter.ISO_INSTANT.format(record.expiresAt()));
            }
            if (!record.owner().isEmpty()) {
                Json.quote(json.append(",\"").append(OWNER).append("\":"), record.owner());
            }
            if (!record.nonce().isEmpty()) {
                Json.quote(json.append(",\"").append(NONCE).append("\":"), record.nonce());
            }
        });
        Optional<String> text = utf8(content);
        if (text.isPresent()) {
            Json.quote(json.append(",\"").append(RECORD).append("\":"), text.get());
        } else {
            json.append(",\"").append(RECORD_BASE64).append("\":\"")
                    .append(Base64.getEncoder().encodeToString(content)).append('"');
        }
        Json.quote(json.append(",\"").append(WRITE_ID).append("\":"), writeId);
        return json.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The stored bytes of a document's {@code _source}.
     *
     * @throws IllegalArgumentException when {@value #RECORD} or {@value #RECORD_BASE64} has the wrong type
     */
    static byte[] content(Map<String, Object> source) {
        Object text = source.get(RECORD);
        if (text != null) {
            if (!(text instanceof String string)) {
                throw new IllegalArgumentException("field '" + RECORD + "' is not a string");
            }
            return string.getBytes(StandardCharsets.UTF_8);
        }
        Object base64 = source.get(RECORD_BASE64);
        if (base64 != null) {
            if (!(base64 instanceof String string)) {
                throw new IllegalArgumentException("field '" + RECORD_BASE64 + "' is not a string");
            }
            return Base64.getDecoder().decode(string);
        }
        return Json.write(source).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The write id of a stored document, or empty for a document without one (written by hand, or by an earlier
     * hoplock).
     *
     * @throws IllegalArgumentException when {@value #WRITE_ID} is there but is no non-blank string without spaces
     */
    static Optional<String> writeId(Map<String, Object> source) {
        Object id = source.get(WRITE_ID);
        if (id == null) {
            return Optional.empty();
        }
        if (!(id instanceof String string) || string.isEmpty() || string.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("field '" + WRITE_ID + "' is not a write id hoplock wrote");
        }
        return Optional.of(string);
    }

    /** The record in {@code content}, if the codec can read it and its fields fit the mapping. */
    private static Optional<LeaseRecord> record(byte[] content) {
        if (content.length > LeaseRecordCodec.MAX_SIZE) {
            return Optional.empty();
        }
        try {
            return Optional.of(LeaseRecordCodec.decode(content));
        } catch (MalformedLeaseRecordException e) {
            return Optional.empty();
        }
    }

    /** {@code strict_date_optional_time} takes four-digit years only. */
    private static boolean fitsDateField(Instant instant) {
        int year = instant.atZone(ZoneOffset.UTC).getYear();
        return year >= 0 && year <= 9999;
    }

    private static Optional<String> utf8(byte[] content) {
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(content)).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
