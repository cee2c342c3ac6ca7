package dev.hoplock.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.FilesystemBackend;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.record.LeaseRecordCodec;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link FilesystemBackend} promises beyond the shared contract: its files, its errors, and cross-process safety. */
class FilesystemBackendTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    Path directory;

    @Test
    void describeNamesTheAbsoluteDirectory() {
        assertThat(new FilesystemBackend(directory).describe()).isEqualTo("filesystem:" + directory.toAbsolutePath());
    }

    @Test
    void missingDirectoryIsReportedWithTheFixAndNotCreated() {
        Path missing = directory.resolve("no-such-dir");
        FilesystemBackend backend = new FilesystemBackend(missing);

        for (ThrowingCall call : List.<ThrowingCall>of(
                () -> backend.read("lease", TIMEOUT),
                () -> backend.write("lease", Handle.NONE, bytes("x"), TIMEOUT),
                () -> backend.delete("lease", Handle.of("h"), TIMEOUT))) {
            assertThatThrownBy(call::run)
                    .isInstanceOfSatisfying(BackendException.class, e -> {
                        assertThat(e.kind()).isEqualTo(BackendException.Kind.MISSING_CONTAINER);
                        assertThat(e.isRetryable()).isFalse();
                    })
                    .hasMessageContaining(missing.toString())
                    .hasMessageContaining("does not exist")
                    .hasMessageContaining("mkdir -p");
        }
        assertThat(missing).doesNotExist();
    }

    @Test
    void regularFileInsteadOfDirectoryIsMisconfigured() throws IOException {
        Path file = Files.writeString(directory.resolve("a-file"), "not a directory");
        FilesystemBackend backend = new FilesystemBackend(file);

        assertThatThrownBy(() -> backend.write("lease", Handle.NONE, bytes("x"), TIMEOUT))
                .isInstanceOfSatisfying(BackendException.class,
                        e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.MISCONFIGURED))
                .hasMessageContaining(file.toString())
                .hasMessageContaining("is not a directory");
    }

    @Test
    void unwritableDirectoryIsAccessDeniedNamingThePath() throws IOException {
        assumeThat(FileSystems.getDefault().supportedFileAttributeViews()).contains("posix");
        Path readOnly = Files.createDirectory(directory.resolve("read-only"));
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            assumeThat(Files.isWritable(readOnly)).as("the directory is writable anyway (running as root?)").isFalse();
            FilesystemBackend backend = new FilesystemBackend(readOnly);

            assertThatThrownBy(() -> backend.write("elections/a", Handle.NONE, bytes("x"), TIMEOUT))
                    .isInstanceOfSatisfying(BackendException.class,
                            e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.ACCESS_DENIED))
                    .hasMessageContaining(readOnly.toString())
                    .hasMessageContaining("permission denied")
                    .hasMessageContaining("grant");
        } finally {
            Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    /**
     * A directory the process may write but not open (mode {@code -wx}): the rename succeeds, the directory cannot be
     * synced, and the write must say so instead of reporting a durable write. As root, the write runs in a child JVM
     * without the capabilities that let root ignore the mode.
     */
    @Test
    void aDirectoryThatCannotBeSyncedFailsTheWriteNamingTheFix() throws Exception {
        assumeThat(FileSystems.getDefault().supportedFileAttributeViews()).contains("posix");
        Path noRead = Files.createDirectory(directory.resolve("write-only"));
        Files.setPosixFilePermissions(noRead, PosixFilePermissions.fromString("-wx------"));
        try {
            String outcome;
            if (!Files.isReadable(noRead)) {
                try {
                    new FilesystemBackend(noRead).write("elections/a", Handle.NONE, bytes("x"), TIMEOUT);
                    outcome = "WRITTEN";
                } catch (BackendException e) {
                    outcome = "FAILED " + e.kind() + " " + e.getMessage();
                }
            } else {
                Path setpriv = Path.of("/usr/bin/setpriv");
                assumeThat(Files.isExecutable(setpriv)).as("root without setpriv cannot drop CAP_DAC_OVERRIDE").isTrue();
                try (ChildJvm child = ChildJvm.start("sync-child",
                        List.of(setpriv.toString(), "--bounding-set=-dac_override,-dac_read_search"),
                        DirectorySyncChild.class, directory.resolve("sync-child.err"), noRead.toString(),
                        "elections/a")) {
                    outcome = child.nextLine(Duration.ofSeconds(30));
                }
            }

            assertThat(outcome).startsWith("FAILED ACCESS_DENIED ")
                    .contains("was written, but syncing its directory to disk failed", "outcome counts as unknown",
                            "grant the user running this process read permission on " + noRead);
        } finally {
            Files.setPosixFilePermissions(noRead, PosixFilePermissions.fromString("rwx------"));
        }
    }

    /** A lease file far larger than a record is read only up to the limit, with the handle of the whole file. */
    @Test
    void aHugeLeaseFileIsReadOnlyUpToTheRecordLimitWithItsRealHandle() throws Exception {
        FilesystemBackend backend = new FilesystemBackend(directory);
        byte[] huge = new byte[8 * 1024 * 1024];
        Arrays.fill(huge, (byte) 'x');
        Files.write(backend.fileFor("elections/a"), huge);

        var stored = backend.read("elections/a", TIMEOUT).orElseThrow();

        assertThat(stored.content()).hasSize(LeaseRecordCodec.MAX_SIZE + 1);
        assertThat(stored.handle().value()).isEqualTo(sha256Hex(huge));
        assertThatThrownBy(() -> LeaseRecordCodec.decode(stored.content()))
                .as("the elector's view: a corrupt record").hasMessageContaining("larger than the limit");
        assertThat(backend.write("elections/a", stored.handle(), bytes("replaced"), TIMEOUT))
                .isInstanceOf(WriteResult.Written.class);
    }

    @Test
    void leaseFileHoldsExactlyTheBytesUnderTheDocumentedName() throws Exception {
        FilesystemBackend backend = new FilesystemBackend(directory);
        byte[] content = bytes("{\"generation\":1,\"owner\":\"n\u00f8de\"}");

        Handle handle = written(backend.write("elections/a", Handle.NONE, content, TIMEOUT));

        Path file = backend.fileFor("elections/a");
        assertThat(file.getParent()).isEqualTo(directory.toAbsolutePath());
        assertThat(file.getFileName().toString()).matches("elections\\+a~[0-9a-f]{32}\\.lease");
        assertThat(file).hasBinaryContent(content);
        assertThat(handle.value()).isEqualTo(sha256Hex(content));
        try (Stream<Path> files = Files.list(directory)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("after a write only the lease file and its lock file remain")
                    .containsExactlyInAnyOrder(file.getFileName().toString(),
                            file.getFileName().toString().replace(".lease", ".lock"));
        }
    }

    @Test
    void instancesOverTheSameDirectoryThroughASymlinkCompete() throws Exception {
        Path real = Files.createDirectory(directory.resolve("real"));
        Path link = Files.createSymbolicLink(directory.resolve("link"), real);
        FilesystemBackend viaReal = new FilesystemBackend(real);
        FilesystemBackend viaLink = new FilesystemBackend(link);

        Handle first = written(viaReal.write("lease", Handle.NONE, bytes("one"), TIMEOUT));

        assertThat(viaLink.write("lease", Handle.NONE, bytes("two"), TIMEOUT))
                .isEqualTo(new WriteResult.Refused(WriteResult.Refusal.PRECONDITION_FAILED));
        Handle second = written(viaLink.write("lease", first, bytes("two"), TIMEOUT));
        assertThat(viaReal.read("lease", TIMEOUT)).hasValueSatisfying(o -> assertThat(o.handle()).isEqualTo(second));
    }

    @Test
    void waitingForAHeldLockTimesOutWithoutWriting() throws Exception {
        FilesystemBackend backend = new FilesystemBackend(directory);
        String key = "elections/a";
        Duration shortTimeout = Duration.ofMillis(300);
        try (FileChannel channel = FileChannel.open(lockFileOf(backend, key), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock held = channel.lock()) {
            long start = System.nanoTime();

            assertThatThrownBy(() -> backend.write(key, Handle.NONE, bytes("x"), shortTimeout))
                    .isInstanceOfSatisfying(BackendException.class,
                            e -> assertThat(e.kind()).isEqualTo(BackendException.Kind.TRANSIENT))
                    .hasMessageContaining("timed out waiting for lock on " + lockFileOf(backend, key));

            assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(shortTimeout, Duration.ofSeconds(5));
        }
        assertThat(backend.read(key, TIMEOUT)).isEmpty();
        written(backend.write(key, Handle.NONE, bytes("x"), TIMEOUT));
    }

    /**
     * Several JVMs increment one counter by read + compare-and-swap. A lost update (two processes both replacing the
     * same version) would leave the counter below the sum of the increments the children report as successful.
     */
    @Test
    void childProcessesNeverLoseAnIncrement() throws Exception {
        int children = 4;
        int incrementsEach = 250;
        String key = "counters/shared";
        FilesystemBackend backend = new FilesystemBackend(directory);
        written(backend.write(key, Handle.NONE, bytes("0"), TIMEOUT));

        List<ChildJvm> jvms = new ArrayList<>();
        try {
            for (int i = 0; i < children; i++) {
                jvms.add(ChildJvm.start("child-" + i, CounterChild.class, directory.resolve("child-" + i + ".err"),
                        directory.toString(), key, Integer.toString(incrementsEach)));
            }
            for (ChildJvm jvm : jvms) {
                assertThat(jvm.nextLine(Duration.ofSeconds(20))).isEqualTo("READY");
            }
            for (ChildJvm jvm : jvms) {
                jvm.send("GO");
            }
            long reported = 0;
            long lost = 0;
            for (ChildJvm jvm : jvms) {
                String[] done = jvm.nextLine(Duration.ofSeconds(40)).split(" ");
                assertThat(done[0]).isEqualTo("DONE");
                reported += Long.parseLong(done[1]);
                lost += Long.parseLong(done[2]);
                assertThat(jvm.waitForExit(Duration.ofSeconds(10))).as("exit code; stderr: %s", jvm.stderrText()).isZero();
            }

            long counter = Long.parseLong(new String(backend.read(key, TIMEOUT).orElseThrow().content(),
                    StandardCharsets.UTF_8));
            assertThat(reported).isEqualTo((long) children * incrementsEach);
            assertThat(counter).as("counter after %d successful increments and %d lost races", reported, lost)
                    .isEqualTo(reported);
        } finally {
            for (ChildJvm jvm : jvms) {
                jvm.close();
            }
        }
    }

    @FunctionalInterface
    private interface ThrowingCall {
        Object run() throws Exception;
    }

    private static Path lockFileOf(FilesystemBackend backend, String key) {
        Path lease = backend.fileFor(key);
        return lease.resolveSibling(lease.getFileName().toString().replace(".lease", ".lock"));
    }

    private static Handle written(WriteResult result) {
        assertThat(result).isInstanceOf(WriteResult.Written.class);
        return ((WriteResult.Written) result).handle();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String sha256Hex(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
