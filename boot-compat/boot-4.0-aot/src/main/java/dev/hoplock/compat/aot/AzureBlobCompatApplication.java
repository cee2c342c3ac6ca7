package dev.hoplock.compat.aot;

/** The compatibility application over Azure Blob Storage ({@code hoplock.backend=azure-blob}), as processed by Spring AOT. */
public final class AzureBlobCompatApplication {

    private AzureBlobCompatApplication() {
    }

    /** Starts the application over Azure Blob Storage. */
    public static void main(String[] args) {
        AotStoreApplication.run(AzureBlobCompatApplication.class, "azure-blob", args);
    }
}
