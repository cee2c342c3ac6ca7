package dev.hoplock.nats;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.CallBudget;
import io.nats.client.Connection;
import io.nats.client.JetStreamStatusException;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends one request over the connection and waits for its answer within the call's {@link CallBudget}, so that no
 * call outlasts its budget whatever the client's own timeouts are.
 *
 * <p>Guarantees: nothing is sent while the connection is not {@code CONNECTED} (the client would otherwise queue the
 * request for after a reconnect, long after the caller gave up); a 503 status (no responders) is returned as it came,
 * for the caller to name; a permission violation that the server reports while the request waits (the server answers
 * a refused publish with {@code -ERR 'Permissions Violation ...'} and no reply) ends the wait at once as
 * {@link BackendException.Kind#ACCESS_DENIED} naming the subject; a request that gets no answer in time is cancelled and
 * reported as {@link BackendException.Kind#TRANSIENT} (an unknown outcome for a change). Thread-safe.
 */
final class NatsExchange {

    /** How often a waiting request looks for a permission violation reported by the server. */
    private static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** A cancellation this long before the budget's end is the client's answer to "no responders". */
    private static final long NO_RESPONDERS_MARGIN_MILLIS = 20;

    private final Connection connection;
    private final NatsErrors errors;

    NatsExchange(Connection connection, NatsErrors errors) {
        this.connection = connection;
        this.errors = errors;
    }

    Connection connection() {
        return connection;
    }

    NatsErrors errors() {
        return errors;
    }

    /** True when the server this connection reached says it has JetStream (its INFO). */
    boolean serverHasJetStream() {
        try {
            return connection.getServerInfo().isJetStreamAvailable();
        } catch (RuntimeException notKnown) {
            return true;
        }
    }

    /** Sends {@code body} (and {@code headers}) to {@code call.subject()} and returns the answer, a status or a reply. */
    Message request(NatsCall call, @Nullable Headers headers, byte @Nullable [] body, CallBudget budget)
            throws BackendException {
        Connection.Status status = connection.getStatus();
        if (status != Connection.Status.CONNECTED) {
            throw errors.notConnected(call, status);
        }
        if (!budget.hasTimeLeft()) {
            throw new BackendException(BackendException.Kind.TRANSIENT, "no time left for " + call.what()
                    + "; nothing was sent");
        }
        long errorsBefore = connection.getStatistics().getErrs();
        CompletableFuture<Message> answer;
        try {
            answer = connection.requestWithTimeout(call.subject(), headers, body,
                    budget.remainingAtLeast(Duration.ofMillis(1)));
        } catch (IllegalStateException closedOrQueueFull) {
            throw errors.notConnected(call, connection.getStatus());
        }
        try {
            while (true) {
                long left = budget.remaining().toNanos();
                if (left <= 0) {
                    throw timedOut(call, budget, errorsBefore);
                }
                try {
                    return checked(call, answer.get(Math.min(left, SLICE_NANOS), TimeUnit.NANOSECONDS));
                } catch (TimeoutException slice) {
                    BackendException denied = violation(call, errorsBefore);
                    if (denied != null) {
                        throw denied;
                    }
                }
            }
        } catch (ExecutionException failed) {
            Throwable cause = failed.getCause() == null ? failed : failed.getCause();
            if (cause instanceof JetStreamStatusException status503 && status503.getStatus() != null
                    && status503.getStatus().getCode() == 503) {
                throw errors.noResponders(call, call.subject().startsWith("$JS."), serverHasJetStream());
            }
            if (cause instanceof CancellationException && budget.remaining().toMillis() > NO_RESPONDERS_MARGIN_MILLIS) {
                throw errors.noResponders(call, call.subject().startsWith("$JS."), serverHasJetStream());
            }
            if (cause instanceof CancellationException || cause instanceof TimeoutException) {
                throw timedOut(call, budget, errorsBefore);
            }
            throw errors.clientFailure(call, cause);
        } catch (CancellationException cancelled) {
            // The client cancels a request at once when the server answers 503 (no responders) and the connection
            // does not report it as an exception; its own timeout, the budget, would cancel it only at the end.
            if (budget.remaining().toMillis() > NO_RESPONDERS_MARGIN_MILLIS) {
                throw errors.noResponders(call, call.subject().startsWith("$JS."), serverHasJetStream());
            }
            throw timedOut(call, budget, errorsBefore);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw errors.interrupted(call, e);
        } finally {
            answer.cancel(true);
        }
    }

    private Message checked(NatsCall call, Message reply) throws BackendException {
        if (!reply.isStatusMessage()) {
            return reply;
        }
        if (reply.getStatus().getCode() == 503) {
            throw errors.noResponders(call, call.subject().startsWith("$JS."), serverHasJetStream());
        }
        throw errors.clientFailure(call, new IllegalStateException("status " + reply.getStatus().getCode() + " "
                + reply.getStatus().getMessage()));
    }

    private BackendException timedOut(NatsCall call, CallBudget budget, long errorsBefore) {
        BackendException denied = violation(call, errorsBefore);
        return denied != null ? denied : errors.noAnswer(call, budget);
    }

    /**
     * A permission violation that explains a missing answer: a refused publish to this call's subject reported since
     * it was sent, or a refused subscription to the reply inbox (which no answer can pass, whenever it was reported).
     */
    private @Nullable BackendException violation(NatsCall call, long errorsBefore) {
        String last = connection.getLastError();
        if (last == null) {
            return null;
        }
        String lower = last.toLowerCase(Locale.ROOT);
        if (!lower.contains("permissions violation")) {
            return null;
        }
        String inbox = connection.getOptions().getInboxPrefix();
        if (lower.contains("subscription") && last.contains(inbox)) {
            return errors.inboxDenied(call, last, inbox);
        }
        if (lower.contains("publish") && last.contains(call.subject())
                && connection.getStatistics().getErrs() != errorsBefore) {
            return errors.denied(call, last);
        }
        return null;
    }
}
