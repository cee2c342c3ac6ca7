package dev.hoplock.dynamodb;

import dev.hoplock.s3.server.FaultProxy;
import dev.hoplock.s3.server.FaultProxy.Request;
import dev.hoplock.s3.server.FaultProxy.Response;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/** What a proxy in front of dynalite does to DynamoDB's JSON protocol, for the tests of bad stores and answers. */
final class DynamoProxies {

    private DynamoProxies() {
    }

    /** The DynamoDB call of a request ({@code PutItem}, ...), from its {@code X-Amz-Target} header. */
    static String call(Request request) {
        String target = request.header("X-Amz-Target");
        return target == null ? "" : target.substring(target.indexOf('.') + 1);
    }

    static String body(Request request) {
        return new String(request.body(), StandardCharsets.UTF_8);
    }

    /** The request without its condition: what a store that ignores {@code ConditionExpression} would do. */
    static Request withoutCondition(Request request) {
        String body = body(request)
                .replaceAll("\"ConditionExpression\":\"[^\"]*\",?", "")
                .replaceAll("\"ExpressionAttributeNames\":\\{[^}]*\\},?", "")
                .replaceAll("\"ExpressionAttributeValues\":\\{\"[^\"]*\":\\{\"S\":\"[^\"]*\"\\}\\},?", "")
                .replace(",}", "}");
        return new Request(request.method(), request.path(), request.headers(),
                body.getBytes(StandardCharsets.UTF_8));
    }

    /** A DynamoDB error answer: status, {@code __type} and message, as the service sends them. */
    static Response error(int status, String type, String message) {
        String json = "{\"__type\":\"com.amazonaws.dynamodb.v20120810#" + type + "\",\"message\":\""
                + message.replace("\"", "'") + "\"}";
        return new Response(status, Map.of("Content-Type", "application/x-amz-json-1.0", "x-amzn-RequestId", "r-1"),
                json.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code response} with its body replaced (and no CRC32 header, which would no longer match). */
    static Response withBody(Response response, String body) {
        return new Response(response.status(), response.withoutHeader("x-amz-crc32").headers(),
                body.getBytes(StandardCharsets.UTF_8));
    }

    static FaultProxy start(java.net.URI upstream) {
        return FaultProxy.start(upstream);
    }
}
