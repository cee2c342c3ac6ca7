package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.spring.HoplockConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;

import java.util.Optional;

/**
 * The in-memory store, and the explanation when no store is configured. Imported after every store's configuration
 * ({@code s3.S3BackendConfiguration}, {@code jdbc.JdbcBackendConfiguration},
 * {@code elasticsearch.ElasticsearchBackendConfiguration}, {@code filesystem.FilesystemBackendConfiguration},
 * {@code redis.RedisBackendConfiguration}, {@code nats.NatsBackendConfiguration},
 * {@code dynamodb.DynamoDbBackendConfiguration}, {@code azure.AzureBlobBackendConfiguration}), so
 * that the fallback sees every store defined before it. Each creates its backend only when the application defines
 * no {@link Backend} bean.
 */
final class BackendConfigurations {

    private BackendConfigurations() {
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(Backend.class)
    @ConditionalOnHoplockBackend(BackendType.MEMORY)
    static class Memory {

        @Bean
        InMemoryBackend hoplockBackend() {
            return new InMemoryBackend();
        }
    }

    /** Defines no store: its bean fails the start and says which setting is missing. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(Backend.class)
    static class Missing {

        @Bean
        Backend hoplockBackend(Environment environment, ResourceLoader resourceLoader) {
            throw explain(environment, resourceLoader.getClassLoader());
        }
    }

    static HoplockConfigurationException explain(Environment environment, @Nullable ClassLoader classLoader) {
        Optional<BackendType> chosen = OnHoplockBackendCondition.chosen(environment);
        if (chosen.isPresent() && chosen.get() == BackendType.S3) {
            boolean s3 = ClassUtils.isPresent("dev.hoplock.s3.S3Backend", classLoader);
            return new HoplockConfigurationException("hoplock.backend",
                    "hoplock.backend is s3, but " + (s3 ? "the AWS SDK for Java v2 (software.amazon.awssdk:s3)"
                            : "dev.hoplock:hoplock-s3") + " is not on the classpath.",
                    "Add the dependency dev.hoplock:hoplock-s3 (it brings the AWS SDK), or choose another"
                            + " hoplock.backend.");
        }
        if (chosen.isPresent() && chosen.get() == BackendType.JDBC) {
            return new HoplockConfigurationException("hoplock.backend",
                    "hoplock.backend is jdbc, but dev.hoplock:hoplock-jdbc is not on the classpath.",
                    "Add the dependency dev.hoplock:hoplock-jdbc (and org.springframework.boot:spring-boot-starter-jdbc"
                            + " with your database's driver, if the application has no DataSource yet), or choose"
                            + " another hoplock.backend.");
        }
        if (chosen.isPresent() && chosen.get().module() != null) {
            // Elasticsearch, and any store whose module adds nothing to say.
            return new HoplockConfigurationException("hoplock.backend",
                    "hoplock.backend is " + chosen.get().value() + ", but " + chosen.get().module() + " is not on the classpath.",
                    "Add the dependency " + chosen.get().module() + ", or choose another hoplock.backend.");
        }
        Binder binder = Binder.get(environment);
        boolean bucket = binder.bind("hoplock.s3.bucket", String.class).isBound();
        boolean directory = binder.bind("hoplock.filesystem.directory", String.class).isBound();
        if (bucket && directory) {
            return new HoplockConfigurationException("hoplock.backend",
                    "Both hoplock.s3.bucket and hoplock.filesystem.directory are set, so the store is ambiguous.",
                    "Set hoplock.backend to s3 or filesystem.");
        }
        return new HoplockConfigurationException("hoplock.backend",
                "hoplock has no store for its leases: hoplock.backend is not set, nor is hoplock.s3.bucket or"
                        + " hoplock.filesystem.directory, and the application defines no Backend bean.",
                "Set hoplock.backend=s3 with hoplock.s3.bucket (and add dev.hoplock:hoplock-s3), or"
                        + " hoplock.backend=elasticsearch with hoplock.elasticsearch.endpoint (and add"
                        + " dev.hoplock:hoplock-elasticsearch), or"
                        + " hoplock.backend=filesystem with hoplock.filesystem.directory (processes on one host), or"
                        + " hoplock.backend=jdbc (a table in the application's DataSource; add dev.hoplock:hoplock-jdbc),"
                        + " or hoplock.backend=redis with hoplock.redis.url or Spring Data Redis's spring.data.redis.*"
                        + " (add dev.hoplock:hoplock-redis), or hoplock.backend=nats with hoplock.nats.url or an"
                        + " io.nats.client.Connection bean (add dev.hoplock:hoplock-nats), or hoplock.backend=dynamodb"
                        + " with hoplock.dynamodb.table (add dev.hoplock:hoplock-dynamodb), or"
                        + " hoplock.backend=azure-blob with hoplock.azure-blob.container and connection-string (add"
                        + " dev.hoplock:hoplock-azure-blob), or"
                        + " hoplock.backend=memory (one process only); or define a dev.hoplock.core.backend.Backend bean;"
                        + " or set hoplock.enabled=false. For tests (@SpringBootTest), put hoplock.backend=memory in"
                        + " src/test/resources/application.properties: each test context then leads alone, in"
                        + " memory.");
    }
}
