package dev.hoplock.core.backend;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * Forces a directory's entries to disk after a rename or delete in it, so that the change survives a crash.
 *
 * <p>Guarantees: {@link #force(Path)} returns normally when the directory was synced, or when the platform is known
 * not to support syncing a directory: Windows, which cannot open a directory as a channel (its renames are made
 * durable by the file system's journal), and a file system that answers {@code EINVAL} or {@code EBADF} to
 * {@code fsync} on a directory (POSIX: the descriptor "does not support synchronization"; PostgreSQL ignores the
 * same two). Every other failure (permission denied, an I/O error, a full or read-only device) is thrown, because
 * then the change may be lost after a crash.
 */
final class DirectorySync {

    private static final boolean WINDOWS = System.getProperty("os.name", "").toLowerCase(Locale.ROOT)
            .startsWith("windows");

    private DirectorySync() {
    }

    /**
     * Syncs {@code directory}.
     *
     * @throws IOException when the directory could not be synced on a platform that supports syncing it
     */
    static void force(Path directory) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(directory, StandardOpenOption.READ);
        } catch (IOException e) {
            if (WINDOWS) {
                return;
            }
            throw e;
        }
        try (channel) {
            channel.force(true);
        } catch (IOException e) {
            if (!isUnsupported(e)) {
                throw e;
            }
        }
    }

    /**
     * Whether a failed {@code fsync} of a directory means "not supported here" ({@code EINVAL}, {@code EBADF}, whose
     * texts the JDK passes on from {@code strerror}) rather than a failure.
     */
    static boolean isUnsupported(IOException e) {
        String message = e.getMessage();
        return message != null && (message.contains("Invalid argument") || message.contains("Bad file descriptor"));
    }
}
