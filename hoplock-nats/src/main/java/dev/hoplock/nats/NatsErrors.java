package dev.hoplock.nats;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.CallBudget;
import io.nats.client.Connection;
import io.nats.client.api.ApiResponse;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.Locale;

/**
 * Turns every failure of a NATS request that is not one of the protocol's expected answers (a wrong last sequence, no
 * message found) into a {@link BackendException} whose kind says whether to retry and whose message names the cause
 * and the fix: the permission and subject for a violation, the bucket and the command that creates it, JetStream
 * switched off on the server or the account, the servers that could not be reached. Text from the server or the client
 * is {@linkplain Redaction cleaned} first; the client's exceptions are attached as causes only where their messages
 * carry no credentials (never the connect failures, whose text may hold a server URL with user info).
 */
final class NatsErrors {

    /** JetStream API error codes (nats-server's errors.json). */
    static final int WRONG_LAST_SEQUENCE = 10071;
    static final int NO_MESSAGE_FOUND = 10037;
    static final int STREAM_NOT_FOUND = 10059;
    static final int STREAM_NAME_IN_USE = 10058;
    static final int NOT_ENABLED_FOR_ACCOUNT = 10039;
    static final int NOT_ENABLED = 10076;
    static final int SEQUENCE_TEMPORARILY_UNKNOWN = 10164;

    private final String store;
    private final String servers;
    private final KvKeys keys;

    NatsErrors(String store, String servers, KvKeys keys) {
        this.store = store;
        this.servers = servers;
        this.keys = keys;
    }

    String store() {
        return store;
    }

    BackendException notConnected(NatsCall call, Connection.Status status) {
        return new BackendException(Kind.UNREACHABLE, call.what() + " was not sent: the NATS connection to " + servers
                + " is " + status.name().toLowerCase(Locale.ROOT) + "; check that the servers are running and"
                + " reachable (the client reconnects by itself)" + (call.change() ? "; nothing was stored" : ""));
    }

    BackendException noAnswer(NatsCall call, CallBudget budget) {
        return new BackendException(Kind.TRANSIENT, "no answer within " + budget.budget().toMillis() + " ms to "
                + call.what() + " (the bucket's stream may have no leader, or the server is overloaded or cut off)"
                + unknown(call));
    }

    BackendException interrupted(NatsCall call, InterruptedException e) {
        return new BackendException(Kind.TRANSIENT, call.what() + " was interrupted" + unknown(call), e);
    }

    BackendException denied(NatsCall call, String serverSaid) {
        return new BackendException(Kind.ACCESS_DENIED, "NATS refused " + call.what() + ": the user may not "
                + call.permission() + " (server said: " + Redaction.clean(serverSaid) + "); grant it in the user's"
                + " permissions (docs/stores/nats.md lists the least privilege)"
                + (call.change() ? "; nothing was stored" : ""));
    }

    BackendException inboxDenied(NatsCall call, String serverSaid, String inboxPrefix) {
        return new BackendException(Kind.ACCESS_DENIED, "NATS answers to " + call.what() + " cannot arrive: the user"
                + " may not subscribe to " + inboxPrefix + "> where replies come (server said: "
                + Redaction.clean(serverSaid) + "); allow subscribe to " + inboxPrefix + ">" + unknown(call));
    }

    /** A 503 status: nobody listens on the subject. */
    BackendException noResponders(NatsCall call, boolean jetStreamApi, boolean serverHasJetStream) {
        if (jetStreamApi) {
            return new BackendException(Kind.MISCONFIGURED, "JetStream did not answer " + call.what() + " (no"
                    + " responders on " + call.subject() + "): " + (serverHasJetStream
                    ? "the account of this user has no JetStream; enable it for the account (jetstream: enabled in"
                    + " the account block, or JetStream limits in its JWT)"
                    : "JetStream is not enabled on the NATS server at " + servers + "; start nats-server with -js or a"
                    + " jetstream {} block in its configuration") + (call.change() ? "; nothing was stored" : ""));
        }
        return new NoResponders("no JetStream stream took " + call.subject() + " for " + call.what() + ": the"
                + " bucket's stream has no leader at this moment (a failover; retried by the caller) or the bucket"
                + " does not exist; nothing was stored");
    }

    /** A publish that nobody took, and the bucket's stream does not exist. */
    BackendException bucketGone(NatsCall call) {
        return new BackendException(Kind.MISSING_CONTAINER, "no JetStream stream takes " + call.subject() + " for "
                + call.what() + ": the KV bucket '" + keys.bucket() + "' does not exist (any more); " + createFix()
                + "; nothing was stored");
    }

    /**
     * Nobody took a publish to a key: a stream without a leader for the moment, or no stream (told apart by
     * {@link KvRequests#publish} with a stream info request). Nothing was stored.
     */
    static final class NoResponders extends BackendException {
        private static final long serialVersionUID = 1L;

        NoResponders(String message) {
            super(Kind.TRANSIENT, message);
        }
    }

    BackendException missingBucket(NatsCall call) {
        return new BackendException(Kind.MISSING_CONTAINER, "the NATS KV bucket '" + keys.bucket() + "' does not"
                + " exist at " + servers + " (stream " + keys.stream() + " not found, answering " + call.what() + "); "
                + createFix());
    }

    String createFix() {
        return "create it with createBucket(true) (hoplock.nats.create-bucket=true), or by hand with the two commands"
                + " in docs/stores/nats.md (nats kv add " + keys.bucket() + " --history=1 --replicas=3, then nats"
                + " stream purge " + keys.stream() + " --seq=<random first revision> -f)";
    }

    /** An error answer of the JetStream API other than the protocol's expected refusals. */
    BackendException apiError(NatsCall call, ApiResponse<?> response) {
        return apiError(call, response.getErrorCode(), response.getApiErrorCode(),
                response.getDescription());
    }

    /**
     * An error answer: {@code status} is the HTTP-like code (404, 503, ...), {@code code} JetStream's own error code
     * (10059, ...), {@code description} the server's text.
     */
    BackendException apiError(NatsCall call, int status, int code, @Nullable String description) {
        String said = "server said: " + Redaction.clean(description == null ? "" : description) + " [" + status + "/"
                + code + "]";
        if (code == STREAM_NOT_FOUND) {
            return missingBucket(call);
        }
        if (code == NOT_ENABLED_FOR_ACCOUNT || code == NOT_ENABLED) {
            return new BackendException(Kind.MISCONFIGURED, "JetStream is not enabled for " + call.what() + " ("
                    + said + "): enable JetStream on the server (-js) and for the user's account"
                    + (call.change() ? "; nothing was stored" : ""));
        }
        if (status == 403 || status == 401) {
            return new BackendException(Kind.ACCESS_DENIED, "NATS refused " + call.what() + " (" + said + "): grant"
                    + " the user " + call.permission() + (call.change() ? "; nothing was stored" : ""));
        }
        if (code == SEQUENCE_TEMPORARILY_UNKNOWN || status == 503 || status == 408 || status == 500) {
            return new BackendException(Kind.TRANSIENT, "NATS could not do " + call.what() + " now (" + said + ")"
                    + unknown(call));
        }
        return new BackendException(Kind.MISCONFIGURED, "NATS refused " + call.what() + " (" + said + "); check the"
                + " bucket '" + keys.bucket() + "' and its configuration" + unknown(call));
    }

    /** The client failed without an answer from the server (a closed connection, an I/O error). */
    BackendException clientFailure(NatsCall call, Throwable e) {
        return new BackendException(Kind.TRANSIENT, call.what() + " failed in the NATS client: "
                + Redaction.clean(e.getClass().getSimpleName() + ": " + e.getMessage()) + unknown(call));
    }

    /** Connecting failed: wrong credentials, or no server reachable. */
    BackendException connectFailed(IOException e) {
        String message = Redaction.clean(e.getMessage());
        String lower = message.toLowerCase(Locale.ROOT);
        if (e instanceof io.nats.client.AuthenticationException || lower.contains("authorization")
                || lower.contains("authentication")) {
            return new BackendException(Kind.ACCESS_DENIED, "the NATS server at " + servers + " refused the"
                    + " credentials (" + message + "): check the user and password, token or credentials file");
        }
        return new BackendException(Kind.UNREACHABLE, "cannot connect to NATS at " + servers + " (" + message
                + "): check the server URLs and that nats-server is running and reachable");
    }

    BackendException revisionBelowFloor(String what, long revision, boolean stored) {
        return new BackendException(Kind.MISCONFIGURED, "the NATS KV bucket '" + keys.bucket() + "' answered "
                + what + " with revision " + revision + ", below " + Revisions.FLOOR + ": its revisions number from 1,"
                + " so they repeat if the bucket is ever deleted and created again, and a holder that slept through that"
                + " could overwrite a new holder's lease. The bucket was created (or re-created) without hoplock's"
                + " random first revision; " + createFix() + (stored ? ". The write was stored, but hoplock does not"
                + " use its revision" : ""));
    }

    private static String unknown(NatsCall call) {
        return call.change() ? "; the outcome of the write is unknown" : "";
    }
}
