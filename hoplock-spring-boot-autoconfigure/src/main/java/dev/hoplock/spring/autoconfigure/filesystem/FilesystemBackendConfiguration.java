package dev.hoplock.spring.autoconfigure.filesystem;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.FilesystemBackend;
import dev.hoplock.spring.HoplockConfigurationException;
import dev.hoplock.spring.autoconfigure.BackendType;
import dev.hoplock.spring.autoconfigure.ConditionalOnHoplockBackend;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The filesystem store (in hoplock-core, always present): a {@link FilesystemBackend} over
 * {@code hoplock.filesystem.directory} when it is the chosen store and the application defines no {@link Backend}.
 * The directory is created when {@code hoplock.filesystem.create-directory} asks for it, and checked writable, so
 * that a directory nobody can write fails the start naming the user and the fix. The settings are
 * {@link FilesystemProperties}. Imported by {@code HoplockAutoConfiguration}, not an auto-configuration itself.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(FilesystemProperties.class)
public class FilesystemBackendConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingBean(Backend.class)
    @ConditionalOnHoplockBackend(BackendType.FILESYSTEM)
    static class Store {

        @Bean
        FilesystemBackend hoplockBackend(FilesystemProperties settings) {
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
}
