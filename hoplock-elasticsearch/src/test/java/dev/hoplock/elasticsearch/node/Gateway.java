package dev.hoplock.elasticsearch.node;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * An HTTP gateway in front of the test node that behaves like the things hoplock meets between itself and a
 * cluster: a security layer (401 for wrong credentials, echoing the header it got, and 403 for a missing
 * privilege, in the error shape Elasticsearch uses), a proxy that drops the query parameters compare-and-swap relies on,
 * a cluster that refuses inline scripts, a server that is no search
 * cluster, a slow cluster and a peer that never answers. Requests it lets through go to the node unchanged.
 */
public final class Gateway implements AutoCloseable {

    private final URI upstream;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "gateway");
        thread.setDaemon(true);
        return thread;
    });
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();

    private volatile String requiredAuthorization;
    private volatile String forbiddenMethod;
    private volatile String forbiddenPath;
    private volatile boolean stripConditions;
    private volatile boolean refuseScripts;
    private volatile boolean notSearch;
    private volatile boolean hang;
    private volatile String slowMethod;
    private volatile String slowPath;
    private volatile Duration slowBy = Duration.ZERO;

    private Gateway(URI upstream) throws IOException {
        this.upstream = upstream;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    /** A gateway to {@code node} that lets everything through until told otherwise. */
    public static Gateway to(OpenSearchNode node) throws IOException {
        return new Gateway(node.endpoint());
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Answers 401 unless a request carries basic authentication with exactly these credentials. */
    public Gateway requireBasicAuth(String user, String password) {
        requiredAuthorization = "Basic " + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        return this;
    }

    /**
     * Answers 403 to {@code method} on {@code path} and on paths below it ({@code path + "/..."}), as for a user
     * without a privilege.
     */
    public Gateway forbid(String method, String path) {
        forbiddenMethod = method;
        forbiddenPath = path;
        return this;
    }

    /** Drops {@code op_type}, {@code if_seq_no} and {@code if_primary_term}: writes become unconditional. */
    public Gateway stripConditions() {
        stripConditions = true;
        return this;
    }

    /**
     * Answers every {@code _update} with the 400 a cluster gives when inline scripts are not allowed
     * ({@code script.allowed_types: stored}), in Elasticsearch's error shape.
     */
    public Gateway refuseScripts() {
        refuseScripts = true;
        return this;
    }

    /** Answers every request with an HTML page, as a web server at the wrong port would. */
    public Gateway notSearch() {
        notSearch = true;
        return this;
    }

    /** Holds each {@code method} request on exactly {@code path} for {@code delay} before passing it on. */
    public Gateway slow(String method, String path, Duration delay) {
        slowMethod = method;
        slowPath = path;
        slowBy = delay;
        return this;
    }

    /** Stops {@link #notSearch()}: requests go to the node again. */
    public Gateway searchAgain() {
        notSearch = false;
        return this;
    }

    /** Never answers (until closed). */
    public Gateway hang() {
        hang = true;
        return this;
    }

    /** Every request received, as {@code METHOD /raw/path}, in order. */
    public List<String> requests() {
        return List.copyOf(requests);
    }

    /** Every Authorization header received, in order. */
    public List<String> authorizations() {
        return List.copyOf(authorizations);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            if (auth != null) {
                authorizations.add(auth);
            }
            byte[] body = exchange.getRequestBody().readAllBytes();
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getRawPath();
            requests.add(method + " " + path);
            if (hang) {
                closed.await(60, TimeUnit.SECONDS);
                return;
            }
            if (notSearch) {
                answer(exchange, 200, "text/html", "<html><body>It works!</body></html>");
                return;
            }
            String required = requiredAuthorization;
            if (required != null && !required.equals(auth)) {
                exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"security\" charset=\"UTF-8\"");
                // Echoes the header it got, as a careless proxy might: the backend must scrub it.
                answer(exchange, 401, "application/json", error("security_exception", "unable to authenticate user"
                        + " for REST request [" + path + "] with authorization [" + auth + "]", 401));
                return;
            }
            if (method.equals(forbiddenMethod) && (path.equals(forbiddenPath) || path.startsWith(forbiddenPath + "/"))) {
                answer(exchange, 403, "application/json", error("security_exception", "action [" + method + " "
                        + path + "] is unauthorized for user [hoplock] with effective roles [reader]", 403));
                return;
            }
            if (refuseScripts && path.contains("/_update/")) {
                answer(exchange, 400, "application/json", "{\"error\":{\"root_cause\":[{\"type\":"
                        + "\"illegal_argument_exception\",\"reason\":\"cannot execute [inline] scripts\"}],\"type\":"
                        + "\"illegal_argument_exception\",\"reason\":\"failed to execute script\",\"caused_by\":{\"type\":"
                        + "\"illegal_argument_exception\",\"reason\":\"cannot execute [inline] scripts\"}},\"status\":400}");
                return;
            }
            if (method.equals(slowMethod) && path.equals(slowPath)) {
                closed.await(slowBy.toNanos(), TimeUnit.NANOSECONDS);
            }
            forward(exchange, method, body);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void forward(HttpExchange exchange, String method, byte[] body) throws IOException, InterruptedException {
        String query = exchange.getRequestURI().getRawQuery();
        if (query != null && stripConditions) {
            query = Arrays.stream(query.split("&"))
                    .filter(p -> !p.startsWith("op_type=") && !p.startsWith("if_seq_no=")
                            && !p.startsWith("if_primary_term="))
                    .collect(Collectors.joining("&"));
        }
        URI target = URI.create(upstream + exchange.getRequestURI().getRawPath()
                + (query == null || query.isEmpty() ? "" : "?" + query));
        HttpRequest.Builder request = HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(30))
                .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        response.headers().firstValue("Content-Type").ifPresent(t -> exchange.getResponseHeaders().add("Content-Type", t));
        byte[] answer = response.body();
        if (method.equals("HEAD") || answer.length == 0) {
            exchange.sendResponseHeaders(response.statusCode(), -1);
        } else {
            exchange.sendResponseHeaders(response.statusCode(), answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        }
    }

    private static void answer(HttpExchange exchange, int status, String type, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", type);
        if (exchange.getRequestMethod().equals("HEAD")) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static String error(String type, String reason, int status) {
        return "{\"error\":{\"root_cause\":[{\"type\":\"" + type + "\",\"reason\":\"" + reason + "\"}],\"type\":\""
                + type + "\",\"reason\":\"" + reason + "\"},\"status\":" + status + "}";
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        threads.shutdownNow();
    }
}
