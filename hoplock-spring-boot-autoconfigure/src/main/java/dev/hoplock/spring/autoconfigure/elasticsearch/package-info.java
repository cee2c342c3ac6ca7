/**
 * The Elasticsearch / OpenSearch store in a Spring Boot application, {@code hoplock.backend=elasticsearch}: its
 * configuration ({@link dev.hoplock.spring.autoconfigure.elasticsearch.ElasticsearchBackendConfiguration}), its
 * settings {@code hoplock.elasticsearch.*}
 * ({@link dev.hoplock.spring.autoconfigure.elasticsearch.ElasticsearchProperties}), the reuse of the application's
 * Elasticsearch client, and the start-up check. Only this package of the auto-configuration refers to
 * {@code dev.hoplock:hoplock-elasticsearch}, and nothing here is loaded without it.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.autoconfigure.elasticsearch;

import org.jspecify.annotations.NullMarked;
