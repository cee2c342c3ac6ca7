package dev.hoplock.elasticsearch.node;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Plain requests to the test node, to look at or change what the backend stores behind its back. */
public final class RawHttp {

    private final URI endpoint;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    public RawHttp(OpenSearchNode node) {
        this.endpoint = node.endpoint();
    }

    /** The answer's status and body text. */
    public record Answer(int status, String body) {
    }

    public Answer get(String path) throws IOException, InterruptedException {
        return send("GET", path, null);
    }

    public Answer put(String path, String json) throws IOException, InterruptedException {
        return send("PUT", path, json);
    }

    public Answer delete(String path) throws IOException, InterruptedException {
        return send("DELETE", path, null);
    }

    public Answer send(String method, String path, String json) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(endpoint + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body());
    }
}
