package dev.hoplock.spring.autoconfigure;

/** The stores that {@code hoplock.backend} can name. A {@link dev.hoplock.core.backend.Backend} bean wins over all. */
public enum BackendType {

    /** An S3 bucket (or S3-compatible store) with conditional writes; needs {@code dev.hoplock:hoplock-s3}. */
    S3,

    /**
     * An Elasticsearch (8, 9) or OpenSearch (2, 3) index; needs {@code dev.hoplock:hoplock-elasticsearch}. The
     * property value is {@code elasticsearch} for both products.
     */
    ELASTICSEARCH,

    /** A directory on a local disk, shared by processes on one host only. */
    FILESYSTEM,

    /**
     * A table in the application's relational database (PostgreSQL, MariaDB/MySQL, H2) through its
     * {@code DataSource}; needs {@code dev.hoplock:hoplock-jdbc}.
     */
    JDBC,

    /** This process's memory: electors of one application context compete, nothing else does. */
    MEMORY
}
