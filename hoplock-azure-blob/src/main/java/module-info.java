/**
 * The Azure Blob Storage store for hoplock ({@link dev.hoplock.azure.blob}). Exports its one package; it reads
 * hoplock-core's API only.
 */
module dev.hoplock.azure.blob {
    requires transitive dev.hoplock.core;
    requires transitive com.azure.core;
    requires transitive com.azure.storage.blob;
    requires com.azure.storage.common;
    requires static com.azure.identity;
    requires java.net.http;
    requires reactor.core;
    requires org.slf4j;

    exports dev.hoplock.azure.blob;
}
