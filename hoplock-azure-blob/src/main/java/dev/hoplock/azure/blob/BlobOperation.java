package dev.hoplock.azure.blob;

/** The REST operations the backend sends, with the data action each needs, for messages. */
enum BlobOperation {
    GET("Get Blob", "Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read", "r (read)"),
    PUT("Put Blob", "Microsoft.Storage/storageAccounts/blobServices/containers/blobs/write", "c and w (create, write)"),
    DELETE("Delete Blob", "Microsoft.Storage/storageAccounts/blobServices/containers/blobs/delete", "d (delete)");

    private final String apiName;
    private final String dataAction;
    private final String sasPermission;

    BlobOperation(String apiName, String dataAction, String sasPermission) {
        this.apiName = apiName;
        this.dataAction = dataAction;
        this.sasPermission = sasPermission;
    }

    /** The REST operation's name, for example {@code Put Blob}. */
    String apiName() {
        return apiName;
    }

    /** The Azure RBAC data action it needs. */
    String dataAction() {
        return dataAction;
    }

    /** The SAS permission letters it needs. */
    String sasPermission() {
        return sasPermission;
    }

    /** True for the operations whose outcome is unknown when no answer came. */
    boolean writes() {
        return this != GET;
    }
}
