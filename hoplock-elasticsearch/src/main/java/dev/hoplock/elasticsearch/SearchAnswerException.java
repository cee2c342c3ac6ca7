package dev.hoplock.elasticsearch;

import dev.hoplock.core.backend.BackendException;

/**
 * The cluster answered a request of the {@link ElasticsearchBackend} with a status the request does not expect. Besides
 * the {@linkplain #kind() kind} every {@link BackendException} has (what the elector does about it), it says which of
 * the cluster's refusals this was ({@link #refusal()}) and the HTTP status, so that a configuration layer can name the
 * setting to change without reading the message. The message names the endpoint (never with credentials), the index,
 * the status, the cluster's error and the fix; it is for people and is not parsed.
 */
public final class SearchAnswerException extends BackendException {

    private static final long serialVersionUID = 1L;

    /** Which refusal an unexpected answer was, decided once where the answer is read. */
    public enum Refusal {
        /** 401: the cluster refused the credentials (user name and password, or API key). */
        CREDENTIALS_REFUSED,
        /** 403: the credentials lack a privilege on the index (or on creating it). */
        PRIVILEGE_MISSING,
        /** 404 {@code index_not_found_exception}: the index does not exist. */
        INDEX_MISSING,
        /** 429 or 5xx: the cluster is overloaded or failing. */
        OVERLOADED,
        /** 400 with a mapping error: the index has a mapping hoplock did not create. */
        FOREIGN_MAPPING,
        /**
         * 400: the cluster refuses the inline painless update script of every conditional swap and delete
         * (scripts disabled, or the language missing).
         */
        SCRIPTS_REFUSED,
        /** Anything else: not an answer Elasticsearch or OpenSearch gives to this request. */
        NOT_A_SEARCH_ANSWER
    }

    private final Refusal refusal;
    private final int status;

    SearchAnswerException(Kind kind, Refusal refusal, int status, String message) {
        super(kind, message);
        this.refusal = refusal;
        this.status = status;
    }

    /** Which refusal this was. */
    public Refusal refusal() {
        return refusal;
    }

    /** The HTTP status of the answer. */
    public int status() {
        return status;
    }
}
