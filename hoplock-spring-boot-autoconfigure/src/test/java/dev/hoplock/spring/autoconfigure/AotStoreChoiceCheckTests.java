package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.backend.Backend;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AotStoreChoiceCheck} knows the backend class of every store {@code hoplock.backend} can name, by the name of
 * a class that exists: a store added or a class renamed without it would leave an AOT start on the wrong store
 * unnoticed. (The check itself runs in AOT mode: {@code AotModeTests} in boot-compat/boot-4.0-aot.)
 */
class AotStoreChoiceCheckTests {

    @Test
    void everyStoreIsRecognisedByItsBackendClass() throws ClassNotFoundException {
        List<String> classes = List.of("dev.hoplock.s3.S3Backend", "dev.hoplock.elasticsearch.ElasticsearchBackend",
                "dev.hoplock.core.backend.FilesystemBackend", "dev.hoplock.jdbc.JdbcBackend",
                "dev.hoplock.redis.RedisBackend", "dev.hoplock.nats.NatsBackend",
                "dev.hoplock.dynamodb.DynamoDbBackend", "dev.hoplock.azure.blob.AzureBlobBackend",
                "dev.hoplock.core.backend.InMemoryBackend");
        Set<BackendType> recognised = EnumSet.noneOf(BackendType.class);
        for (String name : classes) {
            assertThat(Backend.class).as(name).isAssignableFrom(Class.forName(name));
            BackendType store = AotStoreChoiceCheck.storeOf(name);
            assertThat(store).as(name).isNotNull();
            recognised.add(store);
        }
        assertThat(recognised).containsExactlyInAnyOrder(BackendType.values());
        assertThat(AotStoreChoiceCheck.storeOf("com.example.OwnBackend")).isNull();
    }
}
