package dev.hoplock.dynamodb;

/** The DynamoDB API calls the backend makes, with the IAM action each needs, for messages. */
enum DynamoDbOperation {
    GET_ITEM("GetItem", false),
    PUT_ITEM("PutItem", true),
    DELETE_ITEM("DeleteItem", true),
    DESCRIBE_TABLE("DescribeTable", false),
    CREATE_TABLE("CreateTable", true);

    private final String apiName;
    private final boolean writes;

    DynamoDbOperation(String apiName, boolean writes) {
        this.apiName = apiName;
        this.writes = writes;
    }

    String apiName() {
        return apiName;
    }

    /** The IAM action, for example {@code dynamodb:PutItem}. */
    String permission() {
        return "dynamodb:" + apiName;
    }

    /** True for the calls whose outcome is unknown when no answer came. */
    boolean writes() {
        return writes;
    }
}
