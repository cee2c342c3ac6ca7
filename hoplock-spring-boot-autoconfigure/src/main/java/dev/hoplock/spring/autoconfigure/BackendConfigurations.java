package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.FilesystemBackend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.spring.HoplockConfigurationException;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The stores that need nothing beyond hoplock-core, and the explanation when no store is configured. Imported after
 * {@link S3BackendConfiguration}, {@link JdbcBackendConfiguration} and
 * {@link ElasticsearchBackendConfiguration}, so that the fallback sees every store defined before it. Each creates its
 * backend only when the application defines no {@link Backend} bean.
 */
final class BackendConfigurations {

    private BackendConfigurations() {
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(Backend.class)
    @ConditionalOnHoplockBackend(BackendType.FILESYSTEM)
    static class Filesystem {

        @Bean
        FilesystemBackend hoplockBackend(HoplockProperties properties) {
            HoplockProperties.Filesystem settings = properties.getFilesystem();
            Path directory = settings.getDirectory();
            if (directory == null) {
                throw new HoplockConfigurationException("hoplock.filesystem.directory",
                        "hoplock.backend is filesystem, but hoplock.filesystem.directory is not set.",
                        "Set hoplock.filesystem.directory to a directory on a local disk, for example ./.hoplock");
            }
            if (settings.isCreateDirectory()) {
                try {
                    Files.createDirectories(directory);
                } catch (IOException e) {
                    throw new HoplockConfigurationException("hoplock.filesystem.directory",
                            "Cannot create the lease directory " + directory.toAbsolutePath() + " (hoplock.filesystem"
                                    + ".directory): " + e + ".",
                            "Point hoplock.filesystem.directory at a writable directory on a local disk.", e);
                }
            } else if (!Files.isDirectory(directory)) {
                throw new HoplockConfigurationException("hoplock.filesystem.directory",
                        "The lease directory " + directory.toAbsolutePath() + " (hoplock.filesystem.directory) does not"
                                + " exist, and hoplock.filesystem.create-directory is false.",
                        "Create the directory, or set hoplock.filesystem.create-directory=true.");
            }
            checkWritable(directory);
            return new FilesystemBackend(directory);
        }

        /**
         * Creates and deletes a probe file in {@code directory}: an existing directory that this process cannot
         * write would otherwise give a started application on which nobody ever leads.
         */
        static void checkWritable(Path directory) {
            Path probe = null;
            try {
                probe = Files.createTempFile(directory, ".hoplock-write-check-", ".tmp");
            } catch (IOException | SecurityException e) {
                String user = System.getProperty("user.name");
                throw new HoplockConfigurationException("hoplock.filesystem.directory",
                        "The lease directory " + directory.toAbsolutePath() + " (hoplock.filesystem.directory) is not"
                                + " writable by the user '" + user + "' this application runs as: creating a file"
                                + " in it failed (" + e + "). No instance could ever lead.",
                        "Grant the user '" + user + "' read and write access to " + directory.toAbsolutePath()
                                + " (for example: chown " + user + " " + directory.toAbsolutePath() + "), or point"
                                + " hoplock.filesystem.directory at a writable directory on a local disk.", e);
            } finally {
                if (probe != null) {
                    try {
                        Files.deleteIfExists(probe);
                    } catch (IOException ignored) {
                        // The probe file is empty and hidden; the next start's probe uses another name.
                    }
                }
            }
        }
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

    static HoplockConfigurationException explain(Environment environment, ClassLoader classLoader) {
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
        if (chosen.isPresent() && chosen.get() == BackendType.ELASTICSEARCH) {
            return new HoplockConfigurationException("hoplock.backend",
                    "hoplock.backend is elasticsearch, but dev.hoplock:hoplock-elasticsearch is not on the classpath.",
                    "Add the dependency dev.hoplock:hoplock-elasticsearch, or choose another hoplock.backend.");
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
                        + " or"
                        + " hoplock.backend=memory (one process only); or define a dev.hoplock.core.backend.Backend bean;"
                        + " or set hoplock.enabled=false. For tests (@SpringBootTest), put hoplock.backend=memory in"
                        + " src/test/resources/application.properties: each test context then leads alone, in"
                        + " memory.");
    }
}
