/**
 * The Elasticsearch / OpenSearch store for hoplock ({@link dev.hoplock.elasticsearch}), over the JDK's HTTP client (the
 * Elasticsearch client optional). Exports its one package; it reads hoplock-core's API only.
 */
module dev.hoplock.elasticsearch {
    requires transitive dev.hoplock.core;
    requires java.net.http;
    requires static elasticsearch.rest5.client;
    requires static org.apache.httpcomponents.core5.httpcore5;
    requires org.slf4j;

    exports dev.hoplock.elasticsearch;
}
