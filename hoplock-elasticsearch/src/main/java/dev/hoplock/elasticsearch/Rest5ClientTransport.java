package dev.hoplock.elasticsearch;

import co.elastic.clients.transport.rest5_client.low_level.Cancellable;
import co.elastic.clients.transport.rest5_client.low_level.Node;
import co.elastic.clients.transport.rest5_client.low_level.Rest5Client;
import co.elastic.clients.transport.rest5_client.low_level.ResponseException;
import co.elastic.clients.transport.rest5_client.low_level.ResponseListener;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;

import java.io.IOException;
import java.net.URLDecoder;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * An {@link HttpTransport} over the application's Elasticsearch low-level REST client
 * ({@code co.elastic.clients:elasticsearch-rest5-client}, the {@link Rest5Client} that Spring Boot 4
 * auto-configures), so that the backend uses the application's hosts, credentials, TLS settings and connection pool.
 *
 * <p>The low-level client does not check which product answers (only the high-level {@code elasticsearch-java}
 * client insists on Elasticsearch's {@code X-Elastic-Product} header), so this works with OpenSearch too; the tests
 * of this module run it against OpenSearch 2.19.6.
 *
 * <p>Guarantees: every answer is returned whatever its status (the client's {@link ResponseException} is unwrapped);
 * a request still running at {@code timeout} is cancelled and reported as {@link HttpTimeoutException}. The client
 * is never closed by this transport: it belongs to the application. The dependency is optional; this class is
 * loaded only when it is used.
 */
public final class Rest5ClientTransport implements HttpTransport {

    private final Rest5Client client;

    private Rest5ClientTransport(Rest5Client client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    /** A transport over {@code client}, which stays open when the backend is closed. */
    public static Rest5ClientTransport over(Rest5Client client) {
        return new Rest5ClientTransport(client);
    }

    @Override
    public Response send(Request request, Duration timeout) throws IOException, InterruptedException {
        co.elastic.clients.transport.rest5_client.low_level.Request rest = toRest(request);
        CompletableFuture<co.elastic.clients.transport.rest5_client.low_level.Response> answer =
                new CompletableFuture<>();
        Cancellable exchange = client.performRequestAsync(rest, new ResponseListener() {
            @Override
            public void onSuccess(co.elastic.clients.transport.rest5_client.low_level.Response response) {
                answer.complete(response);
            }

            @Override
            public void onFailure(Exception exception) {
                if (exception instanceof ResponseException failed) {
                    answer.complete(failed.getResponse());
                } else {
                    answer.completeExceptionally(exception);
                }
            }
        });
        co.elastic.clients.transport.rest5_client.low_level.Response response =
                Exchanges.await(answer, timeout, exchange::cancel);
        HttpEntity entity = response.getEntity();
        byte[] body = entity == null ? new byte[0] : EntityUtils.toByteArray(entity);
        return new Response(response.getStatusCode(), body);
    }

    /** Splits the query off into parameters, which the client encodes itself. */
    private static co.elastic.clients.transport.rest5_client.low_level.Request toRest(Request request) {
        String path = request.pathAndQuery();
        String query = null;
        int mark = path.indexOf('?');
        if (mark >= 0) {
            query = path.substring(mark + 1);
            path = path.substring(0, mark);
        }
        var rest = new co.elastic.clients.transport.rest5_client.low_level.Request(request.method(), path);
        if (query != null && !query.isEmpty()) {
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                String name = eq < 0 ? pair : pair.substring(0, eq);
                String value = eq < 0 ? "" : pair.substring(eq + 1);
                rest.addParameter(URLDecoder.decode(name, StandardCharsets.UTF_8),
                        URLDecoder.decode(value, StandardCharsets.UTF_8));
            }
        }
        if (request.body() != null) {
            rest.setEntity(new ByteArrayEntity(request.body(), ContentType.APPLICATION_JSON));
        }
        return rest;
    }

    /** The client's hosts, for example {@code http://127.0.0.1:9200} (a host never carries credentials). */
    @Override
    public String endpoint() {
        return client.getNodes().stream().map(Node::getHost).map(Object::toString).collect(Collectors.joining(","));
    }

    /** Leaves the application's client open. */
    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "Rest5ClientTransport[" + endpoint() + "]";
    }
}
