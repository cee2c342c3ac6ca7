package dev.hoplock.spring.autoconfigure.elasticsearch;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.elasticsearch.ElasticsearchBackend;
import dev.hoplock.elasticsearch.ElasticsearchBackendBuilder;
import dev.hoplock.elasticsearch.HttpTransport;
import dev.hoplock.elasticsearch.SearchAnswerException;
import dev.hoplock.spring.HoplockConfigurationException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.function.Supplier;

/**
 * Builds the {@link ElasticsearchBackend} from {@code hoplock.elasticsearch.*} and, with
 * {@code hoplock.elasticsearch.check-on-start}, runs its start-up check. Every failure is a
 * {@link HoplockConfigurationException} that names the property at fault (or, when the application's own client is
 * used, the {@code spring.elasticsearch.*} settings behind it; or, for a cluster setting such as refused inline
 * scripts, names none and says so), the cause as the store reported it (endpoint, index,
 * HTTP status) and the fix. No message contains the password or the API key: the builder keeps them out of its
 * messages, and the store's messages are redacted by it.
 */
final class ElasticsearchBackends {

    private static final Logger log = LoggerFactory.getLogger(ElasticsearchBackends.class);

    private static final String ENDPOINT = "hoplock.elasticsearch.endpoint";
    private static final String SKIP_CHECK = " Or set hoplock.elasticsearch.check-on-start=false to start without the"
            + " cluster: each elector runs the same check before it campaigns, and the hoplock health contributor"
            + " shows the cause until it passes.";

    private ElasticsearchBackends() {
    }

    /**
     * @param settings    {@code hoplock.elasticsearch}
     * @param application a transport over the application's own client, or null when it has none
     */
    static ElasticsearchBackend create(ElasticsearchProperties settings, @Nullable HttpTransport application) {
        checkCredentials(settings);
        boolean reuse = application != null && !settings.hasClientSettings();
        if (!reuse && settings.getEndpoint() == null && application != null) {
            throw new HoplockConfigurationException(ENDPOINT,
                    "hoplock.elasticsearch sets credentials but no endpoint: they are for the HTTP client hoplock"
                            + " creates for hoplock.elasticsearch.endpoint, not for the application's Rest5Client.",
                    "Set hoplock.elasticsearch.endpoint as well; or remove hoplock.elasticsearch.username, password"
                            + " and api-key to use the application's client, with the credentials of"
                            + " spring.elasticsearch.*.");
        }
        if (!reuse && settings.getEndpoint() == null) {
            throw new HoplockConfigurationException(ENDPOINT,
                    "hoplock.backend is elasticsearch, but hoplock.elasticsearch.endpoint is not set and the"
                            + " application has no Elasticsearch low-level client (Rest5Client bean) to reuse.",
                    "Set hoplock.elasticsearch.endpoint to the cluster's URL, for example"
                            + " https://search.example.com:9200 (with hoplock.elasticsearch.username and password, or"
                            + " api-key, if it needs them); or add org.springframework.boot:spring-boot-elasticsearch"
                            + " with spring.elasticsearch.uris, whose client hoplock then reuses.");
        }
        if (application != null && !reuse) {
            log.info("hoplock: hoplock.elasticsearch sets an endpoint or credentials, so hoplock creates its own"
                    + " HTTP client instead of using the application's Rest5Client bean");
        }
        ElasticsearchBackend backend = build(() -> configure(settings, reuse ? application : null));
        if (settings.isCheckOnStart()) {
            try {
                backend.verify();
            } catch (BackendException | RuntimeException e) {
                backend.close();
                throw checkFailed(e, settings, reuse);
            }
        }
        log.info("hoplock: {} ({})", backend.describe(),
                reuse ? "through the application's Rest5Client bean" : "with its own HTTP client");
        return backend;
    }

    private static ElasticsearchBackendBuilder configure(ElasticsearchProperties settings,
            @Nullable HttpTransport application) {
        ElasticsearchBackendBuilder builder = ElasticsearchBackend.builder()
                .index(settings.getIndex())
                .createIndex(settings.isCreateIndex())
                .requestTimeout(settings.getRequestTimeout())
                .verify(false);
        if (application != null) {
            builder.transport(application);
        } else {
            builder.endpoint(settings.getEndpoint()).connectTimeout(settings.getConnectTimeout());
            if (settings.getUsername() != null) {
                builder.basicAuth(settings.getUsername(), settings.getPassword());
            } else if (settings.getApiKey() != null) {
                builder.apiKey(settings.getApiKey());
            }
        }
        return builder;
    }

    private static void checkCredentials(ElasticsearchProperties settings) {
        boolean user = settings.getUsername() != null;
        boolean password = settings.getPassword() != null;
        if (user != password) {
            String missing = user ? "hoplock.elasticsearch.password" : "hoplock.elasticsearch.username";
            throw new HoplockConfigurationException(missing,
                    "Only one of hoplock.elasticsearch.username and hoplock.elasticsearch.password is set; " + missing
                            + " is missing.",
                    "Set both for basic authentication, or neither (then api-key, or no authentication).");
        }
        if (user && settings.getApiKey() != null) {
            throw new HoplockConfigurationException("hoplock.elasticsearch.api-key",
                    "Both basic authentication (hoplock.elasticsearch.username and password) and"
                            + " hoplock.elasticsearch.api-key are set.",
                    "Keep one: the API key, or the user name and password.");
        }
    }

    /** Builder setting (as {@link InvalidSettingException#setting()} names it) to the property that supplies it. */
    private static final Map<String, String> PROPERTIES = Map.of(
            "endpoint", ENDPOINT,
            "index", "hoplock.elasticsearch.index",
            "requestTimeout", "hoplock.elasticsearch.request-timeout",
            "connectTimeout", "hoplock.elasticsearch.connect-timeout",
            "apiKey", "hoplock.elasticsearch.api-key",
            "basicAuth", "hoplock.elasticsearch.username");

    /**
     * Builds the store; a refused setting is reported under the property that supplies it, found from the
     * exception's {@link InvalidSettingException#setting() setting} field (never from its message).
     */
    private static ElasticsearchBackend build(Supplier<ElasticsearchBackendBuilder> configured) {
        try {
            return configured.get().build();
        } catch (InvalidSettingException e) {
            String property = PROPERTIES.getOrDefault(e.setting(), "hoplock.elasticsearch");
            throw new HoplockConfigurationException(property,
                    "Cannot configure the Elasticsearch / OpenSearch store (" + property + "): " + e.getMessage() + ".",
                    "Fix " + property + ".", e);
        } catch (IllegalArgumentException | IllegalStateException | BackendException e) {
            throw new HoplockConfigurationException("hoplock.elasticsearch",
                    "Cannot configure the Elasticsearch / OpenSearch store: " + e.getMessage() + ".",
                    "Fix hoplock.elasticsearch.", e);
        }
    }

    /** The start-up check's failure, with the property to change; the store's message already names the fix. */
    private static HoplockConfigurationException checkFailed(Exception e, ElasticsearchProperties settings,
            boolean reuse) {
        String message = String.valueOf(e.getMessage());
        String description = "The Elasticsearch / OpenSearch store failed its start-up check"
                + (reuse ? ", through the application's Rest5Client (spring.elasticsearch.*)" : "") + ": " + message
                + ".";
        String where = reuse ? "spring.elasticsearch.uris" : ENDPOINT;
        BackendException.Kind kind = e instanceof BackendException b ? b.kind() : BackendException.Kind.TRANSIENT;
        return switch (kind) {
            case UNREACHABLE, TRANSIENT -> new HoplockConfigurationException(reuse ? null : ENDPOINT, description,
                    "Start the cluster, or point " + where + " at it (host, port, http or https)." + SKIP_CHECK, e);
            case ACCESS_DENIED -> refusal(e) == SearchAnswerException.Refusal.CREDENTIALS_REFUSED
                    ? new HoplockConfigurationException(reuse ? null : credentialProperty(settings), description,
                            "Set " + (reuse ? "spring.elasticsearch.username and password (or api-key)"
                                    : "hoplock.elasticsearch.username and password, or api-key,")
                                    + " to credentials the cluster accepts.", e)
                    : new HoplockConfigurationException("hoplock.elasticsearch.index", description,
                            "Grant the user the index privileges read, index, delete and create_index on "
                                    + settings.getIndex() + " (Elasticsearch role or OpenSearch role); or create the"
                                    + " index beforehand with the mapping in the hoplock README and set"
                                    + " hoplock.elasticsearch.create-index=false.", e);
            case MISSING_CONTAINER -> new HoplockConfigurationException("hoplock.elasticsearch.create-index",
                    description, "Create the index " + settings.getIndex() + " with the mapping in the hoplock README,"
                            + " or set hoplock.elasticsearch.create-index=true so that hoplock creates it.", e);
            case CONDITIONAL_WRITES_NOT_SUPPORTED -> new HoplockConfigurationException(reuse ? null : ENDPOINT,
                    description, "Point " + where + " at the cluster itself, not at a proxy that rewrites query"
                            + " parameters (op_type, if_seq_no, if_primary_term); Elasticsearch must be 6.7 or later.",
                    e);
            case MISCONFIGURED -> misconfigured(e, settings, description, reuse, where);
        };
    }

    /**
     * A cluster that answers, but not as hoplock needs: an index with a foreign mapping (the index property), inline
     * update scripts refused (a cluster setting: no hoplock property is at fault, so none is named), or not a search
     * cluster at all (the endpoint).
     */
    private static HoplockConfigurationException misconfigured(Exception e, ElasticsearchProperties settings,
            String description, boolean reuse, String where) {
        SearchAnswerException.Refusal refusal = refusal(e);
        if (refusal == SearchAnswerException.Refusal.FOREIGN_MAPPING) {
            return new HoplockConfigurationException("hoplock.elasticsearch.index", description,
                    "Set hoplock.elasticsearch.index to a new index name (hoplock creates it with its mapping), or"
                            + " re-create " + settings.getIndex() + " with the mapping in the hoplock README.", e);
        }
        if (refusal == SearchAnswerException.Refusal.SCRIPTS_REFUSED) {
            return new HoplockConfigurationException(null, description,
                    "Allow inline painless scripts in the update context on the cluster: the cluster setting"
                            + " script.allowed_types, if set, must include inline, and script.allowed_contexts, if"
                            + " set, must include update; the lang-painless module must be installed. These are"
                            + " settings of the cluster (elasticsearch.yml / opensearch.yml), not of the"
                            + " application: no hoplock property fixes it, and hoplock cannot work without the script"
                            + " (every conditional swap and delete runs it).", e);
        }
        return new HoplockConfigurationException(reuse ? null : ENDPOINT, description,
                "Point " + where + " at the HTTP port of an Elasticsearch or OpenSearch cluster (9200 by default,"
                        + " with any path prefix), over https only if it serves TLS.", e);
    }

    /** Which refusal of the cluster the check met, from the exception's field (never from its message); or null. */
    private static SearchAnswerException.@Nullable Refusal refusal(Exception e) {
        return e instanceof SearchAnswerException answer ? answer.refusal() : null;
    }

    private static String credentialProperty(ElasticsearchProperties settings) {
        return settings.getApiKey() != null ? "hoplock.elasticsearch.api-key" : "hoplock.elasticsearch.username";
    }
}
