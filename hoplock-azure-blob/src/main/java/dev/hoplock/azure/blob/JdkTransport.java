package dev.hoplock.azure.blob;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpHeader;
import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The HTTP transport of a client the builder creates: Azure's {@link HttpClient} over the JDK's
 * {@code java.net.http} client, HTTP/1.1, every body in memory (a lease read asks for at most 64 KiB + 1 byte, and
 * error answers are small).
 *
 * <p>Why not Azure's own {@code azure-core-http-jdk-httpclient}: it logs a WARN line for every request with a body
 * (the Content-Length header, which the JDK sets itself, "is restricted"), that is for every lease write, and as a
 * service-loaded provider on the class path it would also become the HTTP client of every other Azure client of the
 * application. This transport is used only by the clients hoplock creates. The JDK sets Content-Length from the body
 * and Host from the URL; the other restricted headers (Connection, Expect, Upgrade) are not sent.
 *
 * <p>Guarantees: no redirect is followed; each request waits at most the response timeout for its answer; a failure
 * to connect or send is an {@link UncheckedIOException} whose cause is the JDK's {@link IOException} (which the
 * storage SDK retries within the call's budget). Thread-safe.
 */
final class JdkTransport implements HttpClient {

    private static final Set<String> SET_BY_THE_JDK = Set.of("connection", "content-length", "expect", "host",
            "upgrade");

    private final java.net.http.HttpClient client;
    private final Duration responseTimeout;

    JdkTransport(Duration connectTimeout, Duration responseTimeout) {
        this.client = java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1)
                .connectTimeout(connectTimeout).followRedirects(java.net.http.HttpClient.Redirect.NEVER).build();
        this.responseTimeout = responseTimeout;
    }

    @Override
    public Mono<HttpResponse> send(HttpRequest request) {
        return send(request, Context.NONE);
    }

    /**
     * Sends on the JDK client's own threads. A caller that stops waiting (the SDK's call timeout) cancels the request;
     * what it answers afterwards, an error included, is dropped without a log line: the caller already treats the
     * outcome as unknown.
     */
    @Override
    public Mono<HttpResponse> send(HttpRequest request, Context context) {
        return Mono.create(sink -> {
            AtomicBoolean cancelled = new AtomicBoolean();
            CompletableFuture<java.net.http.HttpResponse<byte[]>> answer =
                    client.sendAsync(jdkRequest(request), BodyHandlers.ofByteArray());
            sink.onCancel(() -> {
                cancelled.set(true);
                answer.cancel(true);
            });
            answer.whenComplete((response, error) -> {
                if (cancelled.get()) {
                    return;
                }
                if (error == null) {
                    sink.success(new Buffered(request, response));
                    return;
                }
                Throwable cause = error instanceof CompletionException && error.getCause() != null
                        ? error.getCause() : error;
                sink.error(cause instanceof IOException io ? new UncheckedIOException(io) : cause);
            });
        });
    }

    @Override
    public HttpResponse sendSync(HttpRequest request, Context context) {
        try {
            return new Buffered(request, client.send(jdkRequest(request), BodyHandlers.ofByteArray()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new java.io.InterruptedIOException("interrupted while waiting for "
                    + request.getHttpMethod() + " " + request.getUrl().getPath()));
        }
    }

    private java.net.http.HttpRequest jdkRequest(HttpRequest request) {
        BinaryData body = request.getBodyAsBinaryData();
        byte[] bytes = body == null ? new byte[0] : body.toBytes();
        BodyPublisher publisher = bytes.length == 0 ? BodyPublishers.noBody() : BodyPublishers.ofByteArray(bytes);
        java.net.http.HttpRequest.Builder builder;
        try {
            builder = java.net.http.HttpRequest.newBuilder(request.getUrl().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URI: " + e.getMessage(), e);
        }
        builder.timeout(responseTimeout).method(request.getHttpMethod().name(), publisher);
        for (HttpHeader header : request.getHeaders()) {
            if (!SET_BY_THE_JDK.contains(header.getName().toLowerCase(Locale.ROOT))) {
                for (String value : header.getValuesList()) {
                    builder.header(header.getName(), value);
                }
            }
        }
        return builder.build();
    }

    /** An answer whose body was read whole. */
    private static final class Buffered extends HttpResponse {
        private final int status;
        private final HttpHeaders headers = new HttpHeaders();
        private final byte[] body;

        Buffered(HttpRequest request, java.net.http.HttpResponse<byte[]> response) {
            super(request);
            this.status = response.statusCode();
            this.body = response.body() == null ? new byte[0] : response.body();
            for (Map.Entry<String, List<String>> header : response.headers().map().entrySet()) {
                if (!header.getKey().startsWith(":")) {
                    headers.set(HttpHeaderName.fromString(header.getKey()), header.getValue());
                }
            }
        }

        @Override
        public int getStatusCode() {
            return status;
        }

        @Override
        @Deprecated
        public String getHeaderValue(String name) {
            return headers.getValue(HttpHeaderName.fromString(name));
        }

        @Override
        public HttpHeaders getHeaders() {
            return headers;
        }

        @Override
        public Flux<ByteBuffer> getBody() {
            return body.length == 0 ? Flux.empty() : Flux.just(ByteBuffer.wrap(body).asReadOnlyBuffer());
        }

        @Override
        public BinaryData getBodyAsBinaryData() {
            return BinaryData.fromBytes(body);
        }

        @Override
        public Mono<byte[]> getBodyAsByteArray() {
            return Mono.just(body);
        }

        @Override
        public Mono<String> getBodyAsString() {
            return getBodyAsString(StandardCharsets.UTF_8);
        }

        @Override
        public Mono<String> getBodyAsString(Charset charset) {
            return Mono.just(new String(body, charset));
        }
    }
}
