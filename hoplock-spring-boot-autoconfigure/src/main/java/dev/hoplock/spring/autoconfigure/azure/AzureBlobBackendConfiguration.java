package dev.hoplock.spring.autoconfigure.azure;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import dev.hoplock.azure.blob.AzureBlobBackend;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.spring.autoconfigure.BackendType;
import dev.hoplock.spring.autoconfigure.ConditionalOnHoplockBackend;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Azure Blob Storage store, only when {@code dev.hoplock:hoplock-azure-blob} (and so the Azure Storage Blob SDK)
 * is on the classpath: nothing here is loaded otherwise.
 *
 * <ul>
 *   <li>{@code hoplockBackend}: an {@link AzureBlobBackend} from {@code hoplock.azure-blob.*} when
 *       {@code hoplock.backend=azure-blob} and the application defines no {@link Backend}. It uses the application's
 *       {@link BlobContainerClient} bean, or else its {@link BlobServiceClient} bean (each only if there is exactly
 *       one, as Spring Cloud Azure defines them), as it is, unless {@code hoplock.azure-blob} sets a client setting
 *       (endpoint, connection string, SAS token, default credential, connect timeout); then, or without such a bean,
 *       it creates its own client over the JDK's HTTP client. With {@code hoplock.azure-blob.check-on-start} (default
 *       true) the store's conditional-write probe runs before the bean is returned, and a failure stops the start
 *       with the cause and the fix ({@link AzureBlobBackends}).</li>
 * </ul>
 * The settings are {@link AzureBlobProperties}, bound only when the store module is present. Imported by
 * {@code HoplockAutoConfiguration}, not an auto-configuration itself.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = {"dev.hoplock.azure.blob.AzureBlobBackend", "com.azure.storage.blob.BlobServiceClient"})
@EnableConfigurationProperties(AzureBlobProperties.class)
public class AzureBlobBackendConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(Backend.class)
    @ConditionalOnHoplockBackend(BackendType.AZURE_BLOB)
    static class Store {

        @Bean
        AzureBlobBackend hoplockBackend(AzureBlobProperties settings, ObjectProvider<BlobContainerClient> containers,
                ObjectProvider<BlobServiceClient> services) {
            return AzureBlobBackends.create(settings, containers.getIfUnique(), services.getIfUnique());
        }
    }
}
