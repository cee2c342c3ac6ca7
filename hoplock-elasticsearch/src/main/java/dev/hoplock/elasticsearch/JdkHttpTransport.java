package dev.hoplock.elasticsearch;

import org.jspecify.annotations.Nullable;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;

/**
 * The default {@link HttpTransport}: the JDK's {@link HttpClient} (HTTP/1.1), created for one endpoint, with an
 * optional {@code Authorization} header on every request.
 *
 * <p>Guarantees: {@link #send} waits for the whole answer at most {@code timeout}, then cancels the exchange and
 * throws {@link HttpTimeoutException}. The header value is held only here and is never printed.
 */
final class JdkHttpTransport implements HttpTransport {

    private final HttpClient client;
    private final String base;
    private final @Nullable String authorization;

    /**
     * @param endpoint      scheme, host, port and optional path prefix, without user info or trailing slash
     * @param authorization the {@code Authorization} header value, or null for none
     * @param sslContext    the TLS context for {@code https}, or null for the JDK default
     */
    JdkHttpTransport(URI endpoint, @Nullable String authorization, Duration connectTimeout,
            @Nullable SSLContext sslContext) {
        this.base = Objects.requireNonNull(endpoint, "endpoint").toString();
        this.authorization = authorization;
        HttpClient.Builder builder = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER);
        if (sslContext != null) {
            builder.sslContext(sslContext);
        }
        this.client = builder.build();
    }

    @Override
    public Response send(Request request, Duration timeout) throws IOException, InterruptedException {
        HttpRequest.Builder http = HttpRequest.newBuilder(URI.create(base + request.pathAndQuery()))
                .timeout(timeout)
                .header("Accept", "application/json");
        if (request.body() != null) {
            http.header("Content-Type", "application/json")
                    .method(request.method(), HttpRequest.BodyPublishers.ofByteArray(request.body()));
        } else {
            http.method(request.method(), HttpRequest.BodyPublishers.noBody());
        }
        if (authorization != null) {
            http.header("Authorization", authorization);
        }
        CompletableFuture<HttpResponse<byte[]>> exchange =
                client.sendAsync(http.build(), HttpResponse.BodyHandlers.ofByteArray());
        HttpResponse<byte[]> response = Exchanges.await(exchange, timeout, () -> exchange.cancel(true));
        byte[] body = response.body();
        return new Response(response.statusCode(), body == null ? new byte[0] : body);
    }

    @Override
    public String endpoint() {
        return base;
    }

    /** Nothing to release: the JDK 17 client frees its threads when it is no longer referenced. */
    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "JdkHttpTransport[" + base + (authorization == null ? "" : ", with credentials") + "]";
    }
}
