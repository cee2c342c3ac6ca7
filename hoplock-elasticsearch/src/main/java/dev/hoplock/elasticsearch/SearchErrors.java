package dev.hoplock.elasticsearch;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.json.Json;
import dev.hoplock.elasticsearch.SearchAnswerException.Refusal;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.SSLException;

/**
 * Turns an answer that is not what a request wanted, or a request without an answer, into a
 * {@link BackendException} whose kind says whether to retry and whose message names the endpoint (never with
 * credentials), the index, what happened and the fix.
 */
final class SearchErrors {

    /** The privileges the backend needs on its index, in Elasticsearch's names. */
    static final String PRIVILEGES = "read, index, delete and (to let hoplock create the index) create_index";

    private final String endpoint;
    private final String index;
    private final Redaction redaction;

    SearchErrors(String endpoint, String index, Redaction redaction) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.index = Objects.requireNonNull(index, "index");
        this.redaction = Objects.requireNonNull(redaction, "redaction");
    }

    /** {@code "index <index> at <endpoint>"}. */
    String where() {
        return "index " + index + " at " + endpoint;
    }

    /** A request that got no answer. */
    BackendException noAnswer(String action, IOException e, Duration timeout) {
        String prefix = "cannot " + action + " (" + where() + "): ";
        if (e instanceof HttpConnectTimeoutException) {
            return new BackendException(Kind.UNREACHABLE, prefix + "no connection within the connect timeout; check"
                    + " the endpoint and that the cluster is running and reachable from here", e);
        }
        if (e instanceof HttpTimeoutException) {
            return new BackendException(Kind.TRANSIENT, prefix + "no answer within " + timeout.toMillis() + " ms;"
                    + " nothing is known about the outcome", e);
        }
        if (e instanceof ConnectException || e instanceof UnknownHostException || e instanceof NoRouteToHostException
                || e.getCause() instanceof UnresolvedAddressException || e.getCause() instanceof ConnectException) {
            return new BackendException(Kind.UNREACHABLE, prefix + "the cluster cannot be reached ("
                    + describe(e) + "); check the endpoint (host, port, http or https) and that the cluster is"
                    + " running", e);
        }
        if (e instanceof SSLException) {
            return new BackendException(Kind.MISCONFIGURED, prefix + "the TLS handshake failed (" + describe(e)
                    + "); use https only if the cluster serves TLS, and make its certificate trusted (for a"
                    + " self-signed one, pass an SSLContext that trusts the cluster's CA)", e);
        }
        return new BackendException(Kind.TRANSIENT, prefix + describe(e), e);
    }

    /** An answer with a status the request does not expect. */
    SearchAnswerException unexpected(String action, HttpTransport.Response response) {
        int status = response.status();
        String prefix = "cannot " + action + " (" + where() + "): HTTP " + status + summary(response);
        if (status == 401) {
            return new SearchAnswerException(Kind.ACCESS_DENIED, Refusal.CREDENTIALS_REFUSED, status, prefix
                    + "; the cluster refused the credentials: check the user name and password, or the API key,"
                    + " configured for hoplock");
        }
        if (status == 403) {
            return new SearchAnswerException(Kind.ACCESS_DENIED, Refusal.PRIVILEGE_MISSING, status, prefix
                    + "; the credentials lack a permission: grant the index privileges " + PRIVILEGES + " on "
                    + index);
        }
        if (isIndexMissing(response)) {
            return new SearchAnswerException(Kind.MISSING_CONTAINER, Refusal.INDEX_MISSING, status, prefix
                    + "; the index does not exist: let hoplock create it at start (createIndex(true), the default)"
                    + " or create it with the mapping in the hoplock README");
        }
        if (status == 429 || status >= 500) {
            return new SearchAnswerException(Kind.TRANSIENT, Refusal.OVERLOADED, status, prefix
                    + "; the cluster is overloaded or failing, try again; for a write nothing is known about the"
                    + " outcome");
        }
        if (status == 400 && isScriptRefused(response)) {
            return new SearchAnswerException(Kind.MISCONFIGURED, Refusal.SCRIPTS_REFUSED, status, prefix
                    + "; the cluster refuses hoplock's inline painless script in the update context, which every"
                    + " conditional swap and delete uses (it checks the document's write id, so that a version from a"
                    + " deleted and re-created index never matches): allow inline scripts (script.allowed_types"
                    + " includes inline, script.allowed_contexts includes update), and keep the lang-painless module");
        }
        if (status == 400 && errorText(response).contains("[" + LeaseDocument.WRITE_ID + "]")) {
            return new SearchAnswerException(Kind.MISCONFIGURED, Refusal.FOREIGN_MAPPING, status, prefix
                    + "; the index's mapping lacks the field " + LeaseDocument.WRITE_ID + " (an index created by an"
                    + " earlier hoplock): add it with PUT /" + index + "/_mapping " + LeaseDocument.WRITE_ID_MAPPING
                    + ", or re-create " + index + " with the mapping in the hoplock README");
        }
        if (status == 400 && errorType(response).contains("mapping")) {
            return new SearchAnswerException(Kind.MISCONFIGURED, Refusal.FOREIGN_MAPPING, status, prefix
                    + "; the index has a mapping hoplock did not create: point hoplock at a new index name (it"
                    + " creates the index with its own mapping) or re-create " + index + " with the mapping in the"
                    + " hoplock README");
        }
        return new SearchAnswerException(Kind.MISCONFIGURED, Refusal.NOT_A_SEARCH_ANSWER, status, prefix
                + "; this is not an answer hoplock expects from Elasticsearch or OpenSearch: check the endpoint (port"
                + " 9200 by default, and any path prefix)");
    }

    /** True for the answer to a request on an index that does not exist. */
    static boolean isIndexMissing(HttpTransport.Response response) {
        return response.status() == 404 && errorType(response).equals("index_not_found_exception");
    }

    /**
     * True for the refusal of an inline script or of scripts in the update context ({@code script.allowed_types},
     * {@code script.allowed_contexts}), or a cluster without the painless language.
     */
    static boolean isScriptRefused(HttpTransport.Response response) {
        String text = errorText(response);
        return text.contains("cannot execute [inline] scripts") || text.contains("cannot execute scripts using")
                || text.contains("script_lang not supported");
    }

    /** The type and reasons of an error answer (its root causes included), for matching; empty for none. */
    private static String errorText(HttpTransport.Response response) {
        Object error = errorObject(response);
        return error == null ? "" : String.valueOf(error);
    }

    /** The {@code error.type} of an error answer, or empty. */
    static String errorType(HttpTransport.Response response) {
        Object error = errorObject(response);
        if (error instanceof Map<?, ?> map && map.get("type") instanceof String type) {
            return type;
        }
        return "";
    }

    private static @Nullable Object errorObject(HttpTransport.Response response) {
        try {
            return Json.parseObject(response.text()).get("error");
        } catch (IllegalArgumentException notJson) {
            return null;
        }
    }

    /**
     * {@code " <type>: <reason>"} of an error answer (with {@code " (caused by: <reason>)"} when the cause says more),
     * or the start of a body that is no error object.
     */
    private String summary(HttpTransport.Response response) {
        Object error = errorObject(response);
        if (error instanceof Map<?, ?> map) {
            Object reason = map.get("reason");
            if (reason == null && map.get("root_cause") instanceof List<?> causes && !causes.isEmpty()
                    && causes.get(0) instanceof Map<?, ?> first) {
                reason = first.get("reason");
            }
            String cause = map.get("caused_by") instanceof Map<?, ?> causedBy && causedBy.get("reason") != null
                    && !causedBy.get("reason").equals(reason) ? " (caused by: " + causedBy.get("reason") + ")" : "";
            return " " + redaction.clean(map.get("type") + ": " + reason + cause);
        }
        if (error instanceof String text) {
            return " " + redaction.clean(text);
        }
        String body = redaction.clean(response.text());
        return body.isEmpty() ? "" : " (" + body + ")";
    }

    private String describe(Throwable e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + redaction.clean(message));
    }
}
