package dev.hoplock.compat;

import dev.hoplock.compat.aot.AzureBlobCompatApplication;
import dev.hoplock.compat.aot.DynamoDbCompatApplication;
import dev.hoplock.compat.aot.NatsCompatApplication;
import dev.hoplock.compat.aot.RedisCompatApplication;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.aot.AotDetector;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StoresCompatTests} in Spring AOT mode: each store's application starts from the initializer that
 * {@code process-aot} generated under that store's main class with that {@code hoplock.backend} (the store is fixed
 * at build time, as every condition is; the application's client beans and the store's settings are read at run
 * time, as on the JVM).
 */
class AotStoresTests extends StoresCompatTests {

    @BeforeEach
    void inAotMode() {
        assertThat(AotDetector.useGeneratedArtifacts()).as("spring.aot.enabled=true in this JVM").isTrue();
    }

    @Override
    Class<?> mainClass(String backend) {
        return switch (backend) {
            case "redis" -> RedisCompatApplication.class;
            case "nats" -> NatsCompatApplication.class;
            case "dynamodb" -> DynamoDbCompatApplication.class;
            case "azure-blob" -> AzureBlobCompatApplication.class;
            default -> throw new IllegalArgumentException("no AOT-processed application over " + backend);
        };
    }
}
