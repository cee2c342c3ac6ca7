package dev.hoplock.core.backend;

import dev.hoplock.core.record.LeaseRecordCodec;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A store in one directory on a local disk, shared by any number of threads and processes on the same host.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Linearisable across processes on one host</b>: every write and delete of a key runs while holding an
 *       exclusive OS file lock ({@link FileChannel#lock}) on that key's lock file, plus an in-JVM lock, because
 *       one JVM cannot hold two OS locks on a file. Inside the lock it reads and compares the current handle, writes
 *       the new bytes to a temporary file, forces it to disk, and renames it over the lease file with
 *       {@link StandardCopyOption#ATOMIC_MOVE}. A read takes no lock: it opens either the old or the new file,
 *       never a half-written one.</li>
 *   <li><b>Durable</b>: a write returns {@link WriteResult.Written} only after the file and the directory entry
 *       were forced to disk. Only where syncing a directory is known to be unsupported (Windows; a file system that
 *       answers {@code EINVAL}) is the directory not synced; any other failure to sync it is a
 *       {@link BackendException} (the write is then in place but its outcome counts as unknown, because a crash
 *       could undo it).</li>
 *   <li><b>Bounded reads</b>: a read keeps at most {@link LeaseRecordCodec#MAX_SIZE}{@code + 1} bytes of a lease
 *       file in memory (the handle is still the hash of the whole file); a larger file is no lease record and the
 *       elector treats it as a corrupt one, as the {@link Backend#read} contract says.</li>
 *   <li><b>Handles</b> are the lower-case hex SHA-256 of the stored bytes, so they behave like S3 ETags (the MD5 of
 *       the body): different bytes give a different handle; rewriting identical bytes gives the same handle again,
 *       which is harmless because every lease record the elector writes carries a fresh nonce.</li>
 *   <li><b>Bounded waits</b>: waiting for the locks of a key gives up at {@code timeout} with a
 *       {@link BackendException.Kind#TRANSIENT} "timed out waiting for lock" (the outcome is then known: nothing was
 *       written). The disk I/O after that is not interruptible and is not bounded.</li>
 *   <li><b>Errors</b>: a missing directory is {@link BackendException.Kind#MISSING_CONTAINER} (the backend never
 *       creates it, so a typo or an unmounted volume is reported rather than papered over); a permission problem is
 *       {@link BackendException.Kind#ACCESS_DENIED}; any other I/O failure is
 *       {@link BackendException.Kind#TRANSIENT}. Every message names the path.</li>
 * </ul>
 *
 * <h2>Files</h2>
 * A key maps to one flat file name in the directory, never to subdirectories (so {@code "a"} and {@code "a/b"} can
 * both exist): the key with {@code /} replaced by {@code +}, cut to 100 characters, then
 * {@code ~} and the first 32 hex digits of the SHA-256 of the key. The hash keeps names unique on case-insensitive
 * file systems and within the 255-byte name limit; the readable part is only for people. For key
 * {@code elections/a} the files are
 * <pre>
 *   elections+a~&lt;hash&gt;.lease   the stored bytes, exactly (cat it to see the lease record)
 *   elections+a~&lt;hash&gt;.lock    the lock file; empty, never deleted (deleting it would break mutual exclusion)
 *   elections+a~&lt;hash&gt;.tmp     the next version while it is being written; a crash may leave it behind
 * </pre>
 * Use {@link #fileFor(String)} to find the lease file of a key.
 *
 * <h2>Not for network file systems</h2>
 * Do not point this backend at NFS, SMB/CIFS, or any other network or cluster file system, nor share the directory
 * between hosts or containers with separate kernels: their file locks and rename atomicity are unreliable, and two
 * leaders could result. For several hosts, use an object store with conditional writes (S3) instead.
 *
 * <p>Instances are thread-safe and cheap; any number of instances over the same directory, in one or many
 * processes, cooperate correctly.
 */
public final class FilesystemBackend implements Backend {

    /** How many characters of the key appear in its file name before the hash. */
    static final int READABLE_LENGTH = 100;

    private static final String LEASE_SUFFIX = ".lease";
    private static final String LOCK_SUFFIX = ".lock";
    private static final String TEMP_SUFFIX = ".tmp";
    private static final long MIN_BACKOFF_NANOS = TimeUnit.MICROSECONDS.toNanos(200);
    private static final long MAX_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final Duration MAX_WAIT = Duration.ofDays(36_500);

    /**
     * In-JVM serialisation per lock file, shared by all instances: an OS file lock is held per process, so two
     * threads of one JVM must not both try to take it (Java throws {@link OverlappingFileLockException}), and
     * closing any channel on a lock file may release the process's lock on it.
     */
    private static final ReentrantLock[] STRIPES = new ReentrantLock[256];

    static {
        for (int i = 0; i < STRIPES.length; i++) {
            STRIPES[i] = new ReentrantLock();
        }
    }

    private final Path directory;
    private volatile @Nullable Path realDirectory;

    /**
     * Creates a backend over {@code directory}, which must exist when the backend is used (it is checked on every
     * call, not here, so that a volume mounted later works).
     */
    public FilesystemBackend(Path directory) {
        this.directory = Objects.requireNonNull(directory, "directory").toAbsolutePath().normalize();
    }

    /** The directory this backend stores its files in (absolute). */
    public Path directory() {
        return directory;
    }

    /** The file that holds the bytes of {@code key} (it exists only while the key does). */
    public Path fileFor(String key) {
        return directory.resolve(baseName(LeaseKeys.validate(key)) + LEASE_SUFFIX);
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        LeaseKeys.validate(key);
        Objects.requireNonNull(timeout, "timeout");
        return readCurrent(checkedDirectory().resolve(baseName(key) + LEASE_SUFFIX));
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        LeaseKeys.validate(key);
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(content, "content");
        byte[] bytes = content.clone();
        return withKeyLock(key, timeout, (lease, temp) -> {
            Optional<StoredObject> current = readCurrent(lease);
            if (expected.isNone()) {
                if (current.isPresent()) {
                    return WriteResult.preconditionFailed();
                }
            } else if (current.isEmpty()) {
                return WriteResult.notFound();
            } else if (!current.get().handle().equals(expected)) {
                return WriteResult.preconditionFailed();
            }
            replace(lease, temp, bytes);
            return WriteResult.written(handleOf(bytes));
        });
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        LeaseKeys.validate(key);
        Objects.requireNonNull(expected, "expected");
        return withKeyLock(key, timeout, (lease, temp) -> {
            Optional<StoredObject> current = readCurrent(lease);
            if (current.isEmpty()) {
                return DeleteResult.NOT_FOUND;
            }
            if (!current.get().handle().equals(expected)) {
                return DeleteResult.PRECONDITION_FAILED;
            }
            try {
                Files.delete(lease);
            } catch (IOException e) {
                throw failure("delete", lease, e);
            }
            forceDirectory(lease, "deleted");
            return DeleteResult.DELETED;
        });
    }

    @Override
    public String describe() {
        return "filesystem:" + directory;
    }

    @Override
    public String toString() {
        return "FilesystemBackend[" + directory + "]";
    }

    /** The work done while holding both locks of a key. */
    @FunctionalInterface
    private interface LockedOperation<T> {
        T run(Path lease, Path temp) throws BackendException;
    }

    private <T> T withKeyLock(String key, Duration timeout, LockedOperation<T> operation) throws BackendException {
        Objects.requireNonNull(timeout, "timeout");
        long deadline = System.nanoTime() + boundedNanos(timeout);
        Path dir = checkedDirectory();
        String base = baseName(key);
        Path lockFile = dir.resolve(base + LOCK_SUFFIX);
        ReentrantLock stripe = STRIPES[Math.floorMod(lockFile.hashCode(), STRIPES.length)];
        try {
            if (!stripe.tryLock(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                throw timedOut(lockFile, timeout, "busy in this process");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendException(BackendException.Kind.TRANSIENT, "interrupted while waiting for lock on " + lockFile, e);
        }
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = acquire(channel, lockFile, deadline, timeout);
            try {
                return operation.run(dir.resolve(base + LEASE_SUFFIX), dir.resolve(base + TEMP_SUFFIX));
            } finally {
                lock.release();
            }
        } catch (IOException e) {
            throw failure("lock", lockFile, e);
        } finally {
            stripe.unlock();
        }
    }

    private static FileLock acquire(FileChannel channel, Path lockFile, long deadline, Duration timeout)
            throws IOException, BackendException {
        long backoff = MIN_BACKOFF_NANOS;
        while (true) {
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                // Only possible when this JVM reaches the same file through another path (a hard link or bind
                // mount); treat it as busy and let the deadline decide.
                lock = null;
            }
            if (lock != null) {
                return lock;
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw timedOut(lockFile, timeout, "another process holds it");
            }
            LockSupport.parkNanos(Math.min(backoff, remaining));
            if (Thread.currentThread().isInterrupted()) {
                throw new BackendException(BackendException.Kind.TRANSIENT, "interrupted while waiting for lock on " + lockFile);
            }
            backoff = Math.min(backoff * 2, MAX_BACKOFF_NANOS);
        }
    }

    /**
     * The lease file's first {@code MAX_SIZE + 1} bytes (all of a lease record, and enough to tell that a larger
     * file is none) and the handle of the whole file, hashing the rest without keeping it.
     */
    private Optional<StoredObject> readCurrent(Path lease) throws BackendException {
        try (InputStream in = Files.newInputStream(lease)) {
            byte[] start = in.readNBytes(LeaseRecordCodec.MAX_SIZE + 1);
            MessageDigest digest = sha256();
            digest.update(start);
            if (start.length > LeaseRecordCodec.MAX_SIZE) {
                byte[] chunk = new byte[8192];
                for (int n = in.read(chunk); n >= 0; n = in.read(chunk)) {
                    digest.update(chunk, 0, n);
                }
            }
            return Optional.of(new StoredObject(start, Handle.of(HexFormat.of().formatHex(digest.digest()))));
        } catch (NoSuchFileException e) {
            checkedDirectory();
            return Optional.empty();
        } catch (IOException e) {
            throw failure("read", lease, e);
        }
    }

    private void replace(Path lease, Path temp, byte[] bytes) throws BackendException {
        try {
            try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                out.force(true);
            }
            Files.move(temp, lease, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // The next write of this key truncates it anyway.
            }
            throw failure("write", lease, e);
        }
        forceDirectory(lease, "written");
    }

    /** Makes the rename or delete of {@code lease} durable; see {@link DirectorySync} for where it cannot. */
    private void forceDirectory(Path lease, String done) throws BackendException {
        Path dir = Objects.requireNonNull(lease.getParent(), "a lease file lies in the store's directory");
        try {
            DirectorySync.force(dir);
        } catch (IOException e) {
            String what = lease + " was " + done + ", but syncing its directory to disk failed, so a crash could undo"
                    + " it (the outcome counts as unknown): ";
            if (e instanceof AccessDeniedException || isNotPermitted(e)) {
                throw new BackendException(BackendException.Kind.ACCESS_DENIED, what + "permission denied to open "
                        + dir + " for syncing; grant the user running this process read permission on " + dir, e);
            }
            throw new BackendException(BackendException.Kind.TRANSIENT, what + e + "; check the device that holds "
                    + dir + " (an I/O error here usually means it is failing, full or read-only)", e);
        }
    }

    /** Returns the directory to use, or throws if it is missing or not a directory. */
    private Path checkedDirectory() throws BackendException {
        if (!Files.isDirectory(directory)) {
            if (Files.exists(directory)) {
                throw new BackendException(BackendException.Kind.MISCONFIGURED, "lease directory " + directory
                        + " is not a directory; point hoplock at a directory");
            }
            throw new BackendException(BackendException.Kind.MISSING_CONTAINER, "lease directory " + directory
                    + " does not exist; create it (for example: mkdir -p " + directory
                    + ") or configure an existing directory. hoplock does not create it, so that a typo or an"
                    + " unmounted volume is reported");
        }
        Path real = realDirectory;
        if (real == null) {
            try {
                real = directory.toRealPath();
            } catch (IOException e) {
                throw failure("resolve", directory, e);
            }
            realDirectory = real;
        }
        return real;
    }

    private BackendException failure(String action, Path path, IOException e) {
        if (e instanceof AccessDeniedException || isNotPermitted(e)) {
            return new BackendException(BackendException.Kind.ACCESS_DENIED, "permission denied to " + action + " "
                    + path + "; grant the user running this process read and write access to " + directory, e);
        }
        if (e instanceof NoSuchFileException && !Files.isDirectory(directory)) {
            return new BackendException(BackendException.Kind.MISSING_CONTAINER, "lease directory " + directory
                    + " disappeared while trying to " + action + " " + path + "; recreate it", e);
        }
        return new BackendException(BackendException.Kind.TRANSIENT, "I/O error trying to " + action + " " + path
                + ": " + e, e);
    }

    private static boolean isNotPermitted(IOException e) {
        return e instanceof FileSystemException fse && fse.getReason() != null
                && fse.getReason().contains("Operation not permitted");
    }

    private static BackendException timedOut(Path lockFile, Duration timeout, String why) {
        return new BackendException(BackendException.Kind.TRANSIENT, "timed out waiting for lock on " + lockFile
                + " after " + timeout.toMillis() + " ms (" + why + "); nothing was written");
    }

    /** The timeout in nanoseconds, clamped to [0, 100 years] so that deadline arithmetic cannot overflow. */
    private static long boundedNanos(Duration timeout) {
        if (timeout.isNegative()) {
            return 0;
        }
        return timeout.compareTo(MAX_WAIT) > 0 ? MAX_WAIT.toNanos() : timeout.toNanos();
    }

    static String baseName(String key) {
        String readable = key.replace('/', '+');
        if (readable.length() > READABLE_LENGTH) {
            readable = readable.substring(0, READABLE_LENGTH);
        }
        return readable + "~" + sha256Hex(key.getBytes(StandardCharsets.UTF_8)).substring(0, 32);
    }

    private static Handle handleOf(byte[] bytes) {
        return Handle.of(sha256Hex(bytes));
    }

    private static String sha256Hex(byte[] bytes) {
        return HexFormat.of().formatHex(sha256().digest(bytes));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-256", e);
        }
    }
}
