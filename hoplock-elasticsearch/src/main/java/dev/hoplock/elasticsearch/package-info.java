/**
 * The Elasticsearch and OpenSearch store: {@link dev.hoplock.elasticsearch.ElasticsearchBackend}, built with
 * {@link dev.hoplock.elasticsearch.ElasticsearchBackendBuilder}, over a small HTTP transport.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.elasticsearch;

import org.jspecify.annotations.NullMarked;
