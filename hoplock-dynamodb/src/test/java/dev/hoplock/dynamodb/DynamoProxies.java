package dev.hoplock.dynamodb;

import dev.hoplock.s3.server.FaultProxy;
import dev.hoplock.s3.server.FaultProxy.Request;
import dev.hoplock.s3.server.FaultProxy.Response;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a proxy in front of dynalite does to DynamoDB's JSON protocol, for the tests of bad stores and answers. */
final class DynamoProxies {

    /** The partition key value of a request on the default key attribute. */
    private static final Pattern KEY = Pattern.compile("\"lease_key\":\\{\"S\":\"([^\"]*)\"\\}");

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

    /**
     * What DynamoDB does and dynalite does not: a {@code ConditionalCheckFailedException} answer to a request with
     * {@code ReturnValuesOnConditionCheckFailure=ALL_OLD} carries the item as it was when the condition failed. The
     * item is read from dynalite directly (a strongly consistent GetItem, not through the proxy) right after its
     * refusal, and added to the answer as {@code Item}; a refusal of a missing item stays without one.
     */
    static BiFunction<Request, Response, Response> withItemOnConditionFailure(DynamoDbClient raw, String table) {
        return (request, response) -> {
            String body = new String(response.body(), StandardCharsets.UTF_8);
            if (response.status() != 400 || !body.contains("ConditionalCheckFailedException")) {
                return response;
            }
            Matcher key = KEY.matcher(body(request));
            if (!key.find()) {
                return response;
            }
            Map<String, AttributeValue> item = raw.getItem(get -> get.tableName(table).consistentRead(true)
                    .key(Map.of("lease_key", AttributeValue.fromS(key.group(1))))).item();
            if (item == null || item.isEmpty()) {
                return response;
            }
            return withBody(response, "{\"Item\":" + json(item) + "," + body.substring(1));
        };
    }

    /** An item in DynamoDB's JSON form, for the attribute types hoplock writes (S and B). */
    private static String json(Map<String, AttributeValue> item) {
        StringBuilder json = new StringBuilder("{");
        item.forEach((name, value) -> {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append('"').append(name).append("\":");
            if (value.b() != null) {
                json.append("{\"B\":\"").append(Base64.getEncoder().encodeToString(value.b().asByteArray()))
                        .append("\"}");
            } else {
                json.append("{\"S\":\"").append(value.s()).append("\"}");
            }
        });
        return json.append('}').toString();
    }

    static FaultProxy start(java.net.URI upstream) {
        return FaultProxy.start(upstream);
    }
}
