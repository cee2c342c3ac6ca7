package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.spring.HoplockConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.AotDetector;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.env.Environment;

import java.util.Optional;

/**
 * Fails the start of an application that runs from Spring AOT's generated code when {@code hoplock.backend} (or the
 * setting that chooses the store by default) names another store than the one the store bean was built for.
 *
 * <p>Why: Spring AOT evaluates every condition when {@code process-aot} runs, so the store configuration chosen then is
 * the one that runs, whatever {@code hoplock.backend} says at run time. Without this check an application processed
 * with one store and deployed with another would silently elect on the build-time store, while its other instances
 * (built differently, or not AOT-processed) elect on the store the setting names: two leaders. Guarantees: on an AOT
 * start, a store bean that is one of hoplock's stores and differs from the chosen one stops the start with the
 * setting, both stores and the fix; on a JVM start (conditions evaluated at run time) and for a store of the
 * application's own type, it does nothing.
 */
final class AotStoreChoiceCheck implements SmartInitializingSingleton {

    private final Environment environment;
    private final ObjectProvider<Backend> backend;

    AotStoreChoiceCheck(Environment environment, ObjectProvider<Backend> backend) {
        this.environment = environment;
        this.backend = backend;
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (!AotDetector.useGeneratedArtifacts()) {
            return;
        }
        Optional<BackendType> chosen = OnHoplockBackendCondition.chosen(environment);
        Backend store = backend.getIfUnique();
        if (chosen.isEmpty() || store == null) {
            return;
        }
        BackendType running = storeOf(store.getClass().getName());
        if (running != null && running != chosen.get()) {
            throw new HoplockConfigurationException("hoplock.backend",
                    "hoplock.backend chooses " + chosen.get().value() + ", but this application runs from Spring AOT"
                            + " code generated with hoplock.backend=" + running.value() + ": AOT fixed the store when"
                            + " process-aot ran, so this instance would elect on " + running.value()
                            + " while instances configured alike elect on " + chosen.get().value() + ".",
                    "Run spring-boot:process-aot with the hoplock.backend the application is deployed with ("
                            + chosen.get().value() + "), or deploy with hoplock.backend=" + running.value() + ".");
        }
    }

    /** The store whose auto-configuration builds a backend of this class, or null for any other class. */
    static @Nullable BackendType storeOf(String backendClass) {
        return switch (backendClass) {
            case "dev.hoplock.s3.S3Backend" -> BackendType.S3;
            case "dev.hoplock.elasticsearch.ElasticsearchBackend" -> BackendType.ELASTICSEARCH;
            case "dev.hoplock.core.backend.FilesystemBackend" -> BackendType.FILESYSTEM;
            case "dev.hoplock.jdbc.JdbcBackend" -> BackendType.JDBC;
            case "dev.hoplock.redis.RedisBackend" -> BackendType.REDIS;
            case "dev.hoplock.nats.NatsBackend" -> BackendType.NATS;
            case "dev.hoplock.dynamodb.DynamoDbBackend" -> BackendType.DYNAMODB;
            case "dev.hoplock.azure.blob.AzureBlobBackend" -> BackendType.AZURE_BLOB;
            case "dev.hoplock.core.backend.InMemoryBackend" -> BackendType.MEMORY;
            default -> null;
        };
    }
}
