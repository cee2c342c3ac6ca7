package dev.hoplock.nats;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.CallBudget;
import dev.hoplock.core.json.Json;
import dev.hoplock.core.record.LeaseRecordCodec;
import io.nats.client.JetStreamApiException;
import io.nats.client.Message;
import io.nats.client.api.MessageInfo;
import io.nats.client.api.PublishAck;
import io.nats.client.api.StreamInfo;
import io.nats.client.impl.Headers;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The two requests every lease operation is made of, on the wire, each answered by the bucket's stream leader:
 * <ul>
 *   <li>{@link #last}: {@code $JS.API.STREAM.MSG.GET.KV_<bucket>} with {@code {"last_by_subj": subject}}, the stream
 *       leader's latest message for the key (a value, or a delete marker). Never the "direct get"
 *       ({@code $JS.API.DIRECT.GET}), which any replica or mirror may answer from a state that lags the leader; the
 *       client's {@code KeyValue.get} uses direct get whenever the bucket allows it (the default), so we do not use it.
 *       </li>
 *   <li>{@link #publish}: a message to the key's subject with {@code Nats-Expected-Last-Subject-Sequence} (0: no
 *       message yet) and {@code Nats-Expected-Stream}; the stream applies it only if the key's latest message still
 *       has that sequence (checked by a single server as it stores the message; in a cluster by the stream leader
 *       before it replicates it, with the writes in flight counted from nats-server 2.9.21 on), so of concurrent
 *       writes expecting one revision at most one is stored. A delete is such a message with the header
 *       {@code KV-Operation: DEL} and no body (a delete marker, as {@code KeyValue.delete(key, revision)} writes).</li>
 * </ul>
 * Revisions below {@link Revisions#FLOOR} are refused in every answer (see {@link Revisions}).
 */
final class KvRequests {

    static final String OPERATION_HEADER = "KV-Operation";
    static final String EXPECTED_LAST_SUBJECT_SEQUENCE = "Nats-Expected-Last-Subject-Sequence";
    static final String EXPECTED_STREAM = "Nats-Expected-Stream";

    /** The latest message of a key: a value, or a delete or purge marker. */
    record LastVersion(long revision, byte[] content, boolean marker) {
    }

    /** The answer to a conditional publish. */
    sealed interface Published permits Stored, WrongLastSequence {
    }

    /** The message was stored at {@code revision}. */
    record Stored(long revision) implements Published {
    }

    /** The key's latest message did not have the expected sequence; nothing was stored. */
    record WrongLastSequence() implements Published {
    }

    private final NatsExchange exchange;
    private final KvKeys keys;

    KvRequests(NatsExchange exchange, KvKeys keys) {
        this.exchange = exchange;
        this.keys = keys;
    }

    NatsExchange exchange() {
        return exchange;
    }

    KvKeys keys() {
        return keys;
    }

    /** The stream leader's latest message on {@code subject}, or null when the subject has none. */
    @Nullable LastVersion last(String subject, String what, CallBudget budget) throws BackendException {
        String api = "$JS.API.STREAM.MSG.GET." + keys.stream();
        NatsCall call = NatsCall.api(what, api);
        StringBuilder body = new StringBuilder("{\"last_by_subj\":");
        Json.quote(body, subject);
        Message reply = exchange.request(call, null, body.append('}').toString().getBytes(StandardCharsets.UTF_8),
                budget);
        MessageInfo info = new MessageInfo(reply, keys.stream(), false);
        if (info.hasError()) {
            if (info.getApiErrorCode() == NatsErrors.NO_MESSAGE_FOUND) {
                return null;
            }
            throw exchange.errors().apiError(call, info);
        }
        long revision = info.getSeq();
        if (!Revisions.usable(revision)) {
            throw exchange.errors().revisionBelowFloor(what, revision, false);
        }
        byte[] data = info.getData() == null ? new byte[0] : info.getData();
        if (data.length > LeaseRecordCodec.MAX_SIZE + 1) {
            data = Arrays.copyOf(data, LeaseRecordCodec.MAX_SIZE + 1);
        }
        String operation = info.getHeaders() == null ? null : info.getHeaders().getFirst(OPERATION_HEADER);
        boolean marker = "DEL".equals(operation) || "PURGE".equals(operation);
        return new LastVersion(revision, data, marker);
    }

    /**
     * Whether the bucket's stream exists, asked after a publish that nobody took; true when that cannot be told (the
     * request failed or time ran out), so that the caller reports a passing fault rather than a missing bucket.
     */
    private boolean streamExists(CallBudget budget) {
        NatsCall call = NatsCall.api("the check whether the KV bucket '" + keys.bucket() + "' exists",
                "$JS.API.STREAM.INFO." + keys.stream());
        try {
            StreamInfo info = new StreamInfo(exchange.request(call, null, null, budget));
            return !(info.hasError() && info.getApiErrorCode() == NatsErrors.STREAM_NOT_FOUND);
        } catch (BackendException | RuntimeException cannotTell) {
            return true;
        }
    }

    /**
     * Publishes {@code content} (or a delete marker) to {@code subject} if its latest message has the sequence
     * {@code expected} (0: none).
     */
    Published publish(String subject, byte[] content, long expected, boolean deleteMarker, String what,
            CallBudget budget) throws BackendException {
        NatsCall call = NatsCall.leaseWrite(what, subject, keys.keySubjects());
        Headers headers = new Headers()
                .put(EXPECTED_LAST_SUBJECT_SEQUENCE, Long.toString(expected))
                .put(EXPECTED_STREAM, keys.stream());
        if (deleteMarker) {
            headers.put(OPERATION_HEADER, "DEL");
        }
        Message reply;
        try {
            reply = exchange.request(call, headers, deleteMarker ? null : content, budget);
        } catch (NatsErrors.NoResponders nobody) {
            throw streamExists(budget) ? nobody : exchange.errors().bucketGone(call);
        }
        PublishAck ack;
        try {
            ack = new PublishAck(reply);
        } catch (JetStreamApiException refused) {
            if (refused.getApiErrorCode() == NatsErrors.WRONG_LAST_SEQUENCE) {
                return new WrongLastSequence();
            }
            throw exchange.errors().apiError(call, refused.getErrorCode(), refused.getApiErrorCode(),
                    refused.getErrorDescription());
        } catch (IOException | RuntimeException unreadable) {
            throw exchange.errors().clientFailure(call, unreadable);
        }
        if (!keys.stream().equals(ack.getStream())) {
            throw exchange.errors().clientFailure(call, new IllegalStateException("stored in stream '"
                    + ack.getStream() + "', not " + keys.stream()));
        }
        if (!Revisions.usable(ack.getSeqno())) {
            throw exchange.errors().revisionBelowFloor(what, ack.getSeqno(), true);
        }
        return new Stored(ack.getSeqno());
    }
}
