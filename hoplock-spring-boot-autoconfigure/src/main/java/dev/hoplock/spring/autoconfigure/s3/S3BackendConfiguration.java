package dev.hoplock.spring.autoconfigure.s3;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.s3.S3Backend;
import dev.hoplock.spring.autoconfigure.BackendType;
import dev.hoplock.spring.autoconfigure.ConditionalOnHoplockBackend;
import dev.hoplock.spring.autoconfigure.HoplockProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
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
 *       connect-timeout); the backend never closes a client it did not create. Building it contacts nothing: with
 *       {@code hoplock.probe} (default true) its conditional-write probe runs at the first
 *       {@link S3Backend#verify()}, which each elector calls before it campaigns.</li>
 * </ul>
 * An application's own {@link S3Backend} is verified the same way, as its builder configured it. The settings are
 * {@link S3Properties}, bound only when the store module is present; {@code hoplock.probe} is shared
 * ({@link HoplockProperties}). Imported by {@code HoplockAutoConfiguration}, not an auto-configuration itself.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = {"dev.hoplock.s3.S3Backend", "software.amazon.awssdk.services.s3.S3Client"})
@EnableConfigurationProperties(S3Properties.class)
public class S3BackendConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(Backend.class)
    @ConditionalOnHoplockBackend(BackendType.S3)
    static class Store {

        @Bean
        S3Backend hoplockBackend(S3Properties settings, HoplockProperties properties,
                ObjectProvider<S3Client> clients) {
            return S3Backends.create(settings, properties.isProbe(), clients.getIfUnique());
        }
    }
}
