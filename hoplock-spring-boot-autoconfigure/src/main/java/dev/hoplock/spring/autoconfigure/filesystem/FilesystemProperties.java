package dev.hoplock.spring.autoconfigure.filesystem;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.nio.file.Path;

/**
 * The filesystem store's settings, {@code hoplock.filesystem.*}, owned by {@link FilesystemBackendConfiguration}.
 */
@ConfigurationProperties("hoplock.filesystem")
public class FilesystemProperties {

    /**
     * The directory that holds the lease files. Local disks only, never a network file system: processes on one
     * host share it.
     */
    private @Nullable Path directory;

    /** Create the directory (and its parents) at startup when it does not exist. */
    private boolean createDirectory = true;

    public @Nullable Path getDirectory() {
        return directory;
    }

    public void setDirectory(@Nullable Path directory) {
        this.directory = directory;
    }

    public boolean isCreateDirectory() {
        return createDirectory;
    }

    public void setCreateDirectory(boolean createDirectory) {
        this.createDirectory = createDirectory;
    }
}
