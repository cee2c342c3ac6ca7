package dev.hoplock.s3;

/** The three S3 API calls the backend makes, with the IAM action each one needs. */
enum S3Operation {
    GET("GetObject", "s3:GetObject"),
    PUT("PutObject", "s3:PutObject"),
    DELETE("DeleteObject", "s3:DeleteObject");

    private final String apiName;
    private final String permission;

    S3Operation(String apiName, String permission) {
        this.apiName = apiName;
        this.permission = permission;
    }

    /** The S3 API name, as in AWS documentation and CloudTrail. */
    String apiName() {
        return apiName;
    }

    /** The IAM action that allows the call. */
    String permission() {
        return permission;
    }
}
