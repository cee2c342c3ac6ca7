package dev.hoplock.spring.autoconfigure;

import org.jspecify.annotations.Nullable;

import java.util.Locale;

/**
 * The stores that {@code hoplock.backend} can name. A {@link dev.hoplock.core.backend.Backend} bean wins over all.
 *
 * <p>Each store has its configuration and its properties class in a package of its own
 * ({@code dev.hoplock.spring.autoconfigure.<store>}); here it declares the module it needs and the prefix of its
 * settings, from which the start-up checks tell the module that is missing and the settings that the chosen store does
 * not read.
 */
public enum BackendType {

    /** An S3 bucket (or S3-compatible store) with conditional writes; needs {@code dev.hoplock:hoplock-s3}. */
    S3("dev.hoplock:hoplock-s3", "hoplock.s3"),

    /**
     * An Elasticsearch (8, 9) or OpenSearch (2, 3) index; needs {@code dev.hoplock:hoplock-elasticsearch}. The
     * property value is {@code elasticsearch} for both products.
     */
    ELASTICSEARCH("dev.hoplock:hoplock-elasticsearch", "hoplock.elasticsearch"),

    /** A directory on a local disk, shared by processes on one host only. */
    FILESYSTEM(null, "hoplock.filesystem"),

    /**
     * A table in the application's relational database (PostgreSQL, MariaDB/MySQL, H2) through its
     * {@code DataSource}; needs {@code dev.hoplock:hoplock-jdbc}.
     */
    JDBC("dev.hoplock:hoplock-jdbc", "hoplock.jdbc"),

    /**
     * A Redis server, Sentinel-watched primary or Redis Cluster, over Lettuce; needs {@code dev.hoplock:hoplock-redis}.
     * Reads the application's Lettuce connection factory (Spring Data Redis) when {@code hoplock.redis} names no
     * server.
     */
    REDIS("dev.hoplock:hoplock-redis", "hoplock.redis"),

    /**
     * A NATS JetStream key-value bucket; needs {@code dev.hoplock:hoplock-nats}. Uses the application's
     * {@code io.nats.client.Connection} bean when {@code hoplock.nats} sets no connection of its own.
     */
    NATS("dev.hoplock:hoplock-nats", "hoplock.nats"),

    /**
     * A DynamoDB table (one region; global tables are refused); needs {@code dev.hoplock:hoplock-dynamodb}. Uses the
     * application's {@code DynamoDbClient} bean when {@code hoplock.dynamodb} sets no client of its own.
     */
    DYNAMODB("dev.hoplock:hoplock-dynamodb", "hoplock.dynamodb"),

    /**
     * An Azure Blob Storage container (block blobs swapped by ETag); needs {@code dev.hoplock:hoplock-azure-blob}. The
     * property value is {@code azure-blob}. Uses the application's {@code BlobContainerClient} or
     * {@code BlobServiceClient} bean when {@code hoplock.azure-blob} sets no client of its own.
     */
    AZURE_BLOB("dev.hoplock:hoplock-azure-blob", "hoplock.azure-blob"),

    /** This process's memory: electors of one application context compete, nothing else does. */
    MEMORY(null, null);

    private final @Nullable String module;
    private final @Nullable String properties;

    BackendType(@Nullable String module, @Nullable String properties) {
        this.module = module;
        this.properties = properties;
    }

    /** The value of {@code hoplock.backend} that names the store: {@code s3}, {@code elasticsearch}, ... */
    public String value() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The coordinates of the module the store needs ({@code dev.hoplock:hoplock-s3}); null for hoplock-core's. */
    public @Nullable String module() {
        return module;
    }

    /** The prefix of the store's own settings ({@code hoplock.s3}); null when it has none. */
    public @Nullable String properties() {
        return properties;
    }
}
