package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.s3.S3Backend;
import dev.hoplock.spring.BackendVerifier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3 store, only when {@code dev.hoplock:hoplock-s3} and the AWS SDK are on the classpath: nothing here is loaded
 * otherwise, and no S3 client is created unless S3 is the chosen store.
 *
 * <ul>
 *   <li>{@code hoplockBackend}: an {@link S3Backend} from {@code hoplock.s3.*} when S3 is the chosen store and the
 *       application defines no {@link Backend}. It reuses the application's {@link S3Client} bean (if there is
 *       exactly one) unless {@code hoplock.s3} sets client settings (region, endpoint, path-style, credentials,
 *       connect-timeout); the backend never closes a client it did not create. Building it contacts nothing.</li>
 *   <li>{@code hoplockS3Verifier}: runs the conditional-write probe on any {@link S3Backend} store, the
 *       application's own included, before the electors start ({@code hoplock.probe}, default true).</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = {"dev.hoplock.s3.S3Backend", "software.amazon.awssdk.services.s3.S3Client"})
class S3BackendConfiguration {

    @Bean
    @ConditionalOnBooleanProperty(name = "hoplock.probe", matchIfMissing = true)
    @ConditionalOnMissingBean(name = "hoplockS3Verifier")
    BackendVerifier hoplockS3Verifier() {
        return new S3ConditionalWriteVerifier();
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(Backend.class)
    @ConditionalOnHoplockBackend(BackendType.S3)
    static class Store {

        @Bean
        S3Backend hoplockBackend(HoplockProperties properties, ObjectProvider<S3Client> clients) {
            return S3Backends.create(properties.getS3(), clients.getIfUnique());
        }
    }
}
