package dev.hoplock.elasticsearch;

import org.jspecify.annotations.Nullable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * One HTTP exchange with an Elasticsearch or OpenSearch cluster: the only thing {@link ElasticsearchBackend} needs
 * from an HTTP client. Two implementations come with this module: the JDK's {@code java.net.http} client (what
 * {@link ElasticsearchBackendBuilder#endpoint(String)} creates) and {@link Rest5ClientTransport}, over the
 * application's Elasticsearch low-level REST client.
 *
 * <p>What an implementation must guarantee:
 * <ul>
 *   <li>{@link #send} returns every HTTP answer, whatever its status (404, 409 and 5xx included), and throws only
 *       when there is no answer: an {@link IOException} (a {@link java.net.ConnectException} or
 *       {@link java.net.UnknownHostException} when the cluster cannot be reached, a
 *       {@link java.net.http.HttpTimeoutException} when {@code timeout} passed).</li>
 *   <li>It returns or throws within {@code timeout} (plus scheduling delay), and abandons the exchange then.</li>
 *   <li>It adds the credentials it was configured with to every request, and never puts them in an exception
 *       message, a log line or {@link #toString()}. {@link #endpoint()} has no user info.</li>
 *   <li>It is thread-safe.</li>
 * </ul>
 */
public interface HttpTransport extends AutoCloseable {

    /**
     * A request: method, path with query (starting with {@code /}, relative to the endpoint, already encoded) and an
     * optional JSON body.
     *
     * @param method      {@code GET}, {@code HEAD}, {@code PUT} or {@code DELETE}
     * @param pathAndQuery for example {@code /hoplock-leases/_doc/elections%2Fa?op_type=create}
     * @param body        the JSON body, or null for none
     */
    record Request(String method, String pathAndQuery, byte @Nullable [] body) {
        public Request {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(pathAndQuery, "pathAndQuery");
            if (!pathAndQuery.startsWith("/")) {
                throw new IllegalArgumentException("the path must start with '/': " + pathAndQuery);
            }
        }

        @Override
        public String toString() {
            return method + " " + pathAndQuery;
        }
    }

    /**
     * An answer: the status and the body (empty for none).
     *
     * @param status the HTTP status code
     * @param body   the body's bytes; never null
     */
    record Response(int status, byte[] body) {
        public Response {
            Objects.requireNonNull(body, "body");
        }

        /** The body as UTF-8 text. */
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return "Response[" + status + ", " + body.length + " bytes]";
        }
    }

    /** Sends {@code request} and returns the answer, whatever its status; throws only when there is none. */
    Response send(Request request, Duration timeout) throws IOException, InterruptedException;

    /**
     * The cluster's address for messages, for example {@code https://search.example.com:9200}: never with user
     * info or credentials.
     */
    String endpoint();

    /** Releases what this transport created; a client that was passed in stays open. */
    @Override
    void close();
}
