package dev.hoplock.compat.aot;

/** The compatibility application over DynamoDB ({@code hoplock.backend=dynamodb}), as processed by Spring AOT. */
public final class DynamoDbCompatApplication {

    private DynamoDbCompatApplication() {
    }

    /** Starts the application over DynamoDB. */
    public static void main(String[] args) {
        AotStoreApplication.run(DynamoDbCompatApplication.class, "dynamodb", args);
    }
}
