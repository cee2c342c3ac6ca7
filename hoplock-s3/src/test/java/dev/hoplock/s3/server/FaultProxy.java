package dev.hoplock.s3.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * An HTTP proxy on 127.0.0.1 in front of a real S3 server that forwards every request, records it, and lets a test
 * answer some requests itself or change an answer: the way to show the backend a 412 for a quoted ETag (as Ceph and
 * Hetzner reportedly send), a 409 ConditionalRequestConflict or a 403 (which no local server sends), or a response
 * without an ETag. Everything not intercepted is the real server's answer.
 */
public final class FaultProxy implements AutoCloseable {

    /** A request as the proxy received it; header names lower-case. */
    public record Request(String method, String path, Map<String, String> headers, byte[] body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        /** This request without the header {@code name}, as a proxy that strips it would forward it. */
        public Request withoutHeader(String name) {
            Map<String, String> copy = new TreeMap<>(headers);
            copy.remove(name.toLowerCase(Locale.ROOT));
            return new Request(method, path, Map.copyOf(copy), body);
        }
    }

    /** An answer; header names as given. */
    public record Response(int status, Map<String, String> headers, byte[] body) {

        /** An S3 error answer with the XML body S3 sends. */
        public static Response s3Error(int status, String code, String message) {
            String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code + "</Code><Message>"
                    + message + "</Message><RequestId>proxy-request-1</RequestId></Error>";
            return new Response(status, Map.of("Content-Type", "application/xml"),
                    xml.getBytes(StandardCharsets.UTF_8));
        }

        public Response withoutHeader(String name) {
            Map<String, String> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            copy.putAll(headers);
            copy.remove(name);
            return new Response(status, copy, body);
        }

        public Response withHeader(String name, String value) {
            Map<String, String> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            copy.putAll(headers);
            copy.put(name, value);
            return new Response(status, copy, body);
        }

        public String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(Map.Entry::getValue).findFirst().orElse(null);
        }
    }

    private static final Set<String> NOT_FORWARDED = Set.of("connection", "content-length", "expect", "host",
            "upgrade", "transfer-encoding", "keep-alive");

    private final URI upstream;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private volatile Function<Request, Request> mapRequest = request -> request;
    private volatile Function<Request, Response> intercept = request -> null;
    private volatile BiFunction<Request, Response, Response> rewrite = (request, response) -> response;

    private FaultProxy(URI upstream) throws IOException {
        this.upstream = upstream;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** Starts a proxy in front of {@code upstream}. */
    public static FaultProxy start(URI upstream) {
        try {
            return new FaultProxy(upstream);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Answers a request itself when {@code intercept} returns a response; forwards it when it returns null. */
    public FaultProxy intercept(Function<Request, Response> intercept) {
        this.intercept = intercept;
        return this;
    }

    /** Changes requests before they are forwarded (what {@link #requests()} records is the original). */
    public FaultProxy mapRequest(Function<Request, Request> mapRequest) {
        this.mapRequest = mapRequest;
        return this;
    }

    /** Changes the upstream's answers. */
    public FaultProxy rewrite(BiFunction<Request, Response, Response> rewrite) {
        this.rewrite = rewrite;
        return this;
    }

    /** Every request received so far, in order. */
    public List<Request> requests() {
        return List.copyOf(requests);
    }

    /** The requests with this method, in order. */
    public List<Request> requests(String method) {
        return requests.stream().filter(r -> r.method().equals(method)).toList();
    }

    public void clearRequests() {
        requests.clear();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((name, values) ->
                    headers.put(name.toLowerCase(Locale.ROOT), values.get(0)));
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
                    Map.copyOf(headers), body);
            requests.add(request);
            Response response = intercept.apply(request);
            if (response == null) {
                response = rewrite.apply(request, forward(mapRequest.apply(request)));
            }
            send(exchange, request, response);
        } catch (IOException | RuntimeException e) {
            // The client sees a reset connection, as from a failing store.
            throw e instanceof IOException io ? io : new IOException(e);
        }
    }

    private Response forward(Request request) throws IOException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(upstream.resolve(request.path()))
                .timeout(Duration.ofSeconds(10))
                .method(request.method(), request.body().length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(request.body()));
        request.headers().forEach((name, value) -> {
            if (!NOT_FORWARDED.contains(name)) {
                builder.header(name, value);
            }
        });
        try {
            HttpResponse<byte[]> response = client.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
            Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            response.headers().map().forEach((name, values) -> {
                if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                    headers.put(name, values.get(0));
                }
            });
            return new Response(response.statusCode(), headers, response.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static void send(HttpExchange exchange, Request request, Response response) throws IOException {
        response.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
        boolean noBody = request.method().equals("HEAD") || response.status() == 204 || response.status() == 304;
        if (noBody) {
            exchange.sendResponseHeaders(response.status(), -1);
            return;
        }
        exchange.sendResponseHeaders(response.status(), response.body().length == 0 ? -1 : response.body().length);
        if (response.body().length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(response.body());
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
