package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.spring.autoconfigure.azure.AzureBlobBackendConfiguration;
import dev.hoplock.spring.autoconfigure.dynamodb.DynamoDbBackendConfiguration;
import dev.hoplock.spring.autoconfigure.elasticsearch.ElasticsearchBackendConfiguration;
import dev.hoplock.spring.autoconfigure.filesystem.FilesystemBackendConfiguration;
import dev.hoplock.spring.autoconfigure.jdbc.JdbcBackendConfiguration;
import dev.hoplock.spring.autoconfigure.nats.NatsBackendConfiguration;
import dev.hoplock.spring.autoconfigure.redis.RedisBackendConfiguration;
import dev.hoplock.spring.autoconfigure.s3.S3BackendConfiguration;
import dev.hoplock.spring.leader.BackendDecorator;
import dev.hoplock.spring.leader.Candidacy;
import dev.hoplock.spring.ownership.HoplockOwnership;
import dev.hoplock.spring.leader.ElectorCustomizer;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.StoreWriteWatch;
import dev.hoplock.spring.leader.LeadershipEventPublisher;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * The core of the starter: the store, one elector per election ({@link HoplockElections}), their lifecycle and the
 * Spring events. Active unless {@code hoplock.enabled=false}.
 *
 * <p>The store is the application's {@link Backend} bean if it defines one; otherwise the one {@code hoplock.backend}
 * chooses: one configuration per store, each in its own package with its own properties
 * ({@link S3BackendConfiguration}, {@link JdbcBackendConfiguration}, {@link ElasticsearchBackendConfiguration},
 * {@link FilesystemBackendConfiguration}, {@link RedisBackendConfiguration}, {@link NatsBackendConfiguration},
 * {@link DynamoDbBackendConfiguration}, {@link AzureBlobBackendConfiguration}), then the in-memory store ({@link BackendConfigurations}); with none, the
 * start fails and says what to set. This class and the shared properties ({@link HoplockProperties}) import no store
 * module. Every bean backs off when the application defines its own. Ordered after Boot's DataSource auto-configuration
 * (by name: Boot 4's and Boot 3's class), so that {@code hoplock.backend=jdbc} finds the application's DataSource, and
 * after Boot's Elasticsearch client auto-configuration, which the Elasticsearch store reuses.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
        // The application's Elasticsearch client, which the Elasticsearch store reuses (Boot 4, then Boot 3 names).
        "org.springframework.boot.elasticsearch.autoconfigure.ElasticsearchRestClientAutoConfiguration",
        "org.springframework.boot.autoconfigure.elasticsearch.ElasticsearchRestClientAutoConfiguration",
        // The application's Redis connection factory, which the Redis store reads (Boot 4, then Boot 3 names).
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration"})
@ConditionalOnBooleanProperty(name = "hoplock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(HoplockProperties.class)
@Import({S3BackendConfiguration.class, JdbcBackendConfiguration.class, ElasticsearchBackendConfiguration.class,
        FilesystemBackendConfiguration.class, RedisBackendConfiguration.class, NatsBackendConfiguration.class,
        DynamoDbBackendConfiguration.class, AzureBlobBackendConfiguration.class, BackendConfigurations.Memory.class, BackendConfigurations.Missing.class})
public final class HoplockAutoConfiguration {

    /** Reports misspelled and ignored hoplock.* settings before any bean is created. */
    @Bean
    static HoplockPropertyCheck hoplockPropertyCheck(Environment environment) {
        return new HoplockPropertyCheck(environment);
    }

    @Bean
    static AotStoreChoiceCheck hoplockAotStoreChoiceCheck(Environment environment, ObjectProvider<Backend> backend) {
        return new AotStoreChoiceCheck(environment, backend);
    }

    /**
     * Whether this application takes part now (campaigns, joins its ownership group, takes locks for
     * {@code @WithLock}): {@code hoplock.act-when} and the readiness state decide.
     */
    @Bean
    @ConditionalOnMissingBean
    Candidacy hoplockCandidacy(HoplockProperties properties, ApplicationContext context) {
        return ReadinessCandidacy.initial(properties.actWhen(), context);
    }

    /** Withdraws and takes part as the readiness state changes (nothing to do with act-when=started). */
    @Bean
    static ReadinessCandidacy hoplockReadinessCandidacy(ObjectProvider<HoplockElections> elections,
            ObjectProvider<Backend> backend, ObjectProvider<HoplockProperties> properties,
            ObjectProvider<HoplockOwnership> ownership) {
        return new ReadinessCandidacy(elections, backend, properties, ownership);
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    HoplockElections hoplockElections(HoplockProperties properties, Backend backend,
            ObjectProvider<BackendDecorator> decorators, ObjectProvider<ElectorCustomizer> customizers,
            Candidacy candidacy) {
        return new HoplockElectionsFactory(properties, decorators.orderedStream().toList(),
                customizers.orderedStream().toList(), candidacy).create(backend);
    }

    @Bean
    @ConditionalOnMissingBean
    StoreWriteWatch hoplockStoreWriteWatch() {
        return new StoreWriteWatch();
    }

    @Bean
    @ConditionalOnMissingBean(name = "hoplockLifecycle")
    HoplockLifecycle hoplockLifecycle(HoplockElections elections, Backend backend) {
        return new HoplockLifecycle(elections, backend);
    }

    @Bean
    @ConditionalOnMissingBean
    LeadershipEventPublisher hoplockLeadershipEventPublisher(HoplockElections elections,
            ApplicationEventPublisher publisher) {
        return new LeadershipEventPublisher(elections, publisher);
    }
}
