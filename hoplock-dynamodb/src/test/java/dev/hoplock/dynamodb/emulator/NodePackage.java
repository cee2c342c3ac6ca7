package dev.hoplock.dynamodb.emulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * An npm package that a test starts with Node.js, installed by the harness itself, once per machine: {@code npm ci}
 * of a {@code package.json} and {@code package-lock.json} kept in the module's test sources, into a cache directory
 * named after the lock file's hash ({@code -Dhoplock.npm.cache}, default {@code ~/.cache/hoplock/npm}). Nothing is
 * installed globally, and a build after {@code mvn clean} finds the installation again. Concurrent builds wait for
 * one another through a file lock; an installation is moved into place only once complete.
 *
 * <p>Needs {@code node} (version 20 or later) and {@code npm} on the PATH and the npm registry; every failure names
 * what is missing and how to get it.
 */
public final class NodePackage {

    /** The oldest Node.js major version the emulators here run on. */
    public static final int NODE_MAJOR = 20;
    private static final long INSTALL_MINUTES = 15;

    private final Path directory;

    private NodePackage(Path directory) {
        this.directory = directory;
    }

    /**
     * The installed package whose {@code package.json} and {@code package-lock.json} are in {@code sources}, installing
     * it first if this machine has not yet.
     *
     * @param name the package to check for in {@code node_modules}, for example {@code dynalite}
     */
    public static synchronized NodePackage installed(String name, Path sources) {
        requireNode();
        try {
            Path lock = sources.resolve("package-lock.json");
            Path cache = Paths.get(System.getProperty("hoplock.npm.cache",
                    Paths.get(System.getProperty("user.home"), ".cache", "hoplock", "npm").toString()));
            Path target = cache.resolve(name + "-" + hash(lock));
            if (complete(target, name)) {
                return new NodePackage(target);
            }
            Files.createDirectories(cache);
            try (FileChannel channel = FileChannel.open(cache.resolve(target.getFileName() + ".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = channel.lock()) {
                if (!complete(target, name)) {
                    install(sources, cache, target, name);
                }
            }
            return new NodePackage(target);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot install the npm package " + name, e);
        }
    }

    /** A file of the installed package, for example {@code node_modules/dynalite/cli.js}. */
    public Path file(String relative) {
        return directory.resolve(relative);
    }

    private static boolean complete(Path target, String name) {
        return Files.isRegularFile(target.resolve("node_modules").resolve(name).resolve("package.json"));
    }

    private static void install(Path sources, Path cache, Path target, String name) throws IOException {
        Path work = cache.resolve(target.getFileName() + ".tmp-" + UUID.randomUUID());
        Files.createDirectories(work);
        Files.copy(sources.resolve("package.json"), work.resolve("package.json"));
        Files.copy(sources.resolve("package-lock.json"), work.resolve("package-lock.json"));
        Path log = work.resolve("npm-ci.log");
        System.out.println("installing the npm package " + name + " into " + target + " (once per machine; npm ci,"
                + " output in " + log + ")");
        int exit = run(List.of("npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"), work, log,
                INSTALL_MINUTES);
        if (exit != 0 || !complete(work, name)) {
            throw new IllegalStateException("npm ci of " + name + " failed (exit " + exit + "); see " + log
                    + ". It needs the npm registry (or a populated npm cache) and Node.js " + NODE_MAJOR + "+");
        }
        if (Files.exists(target)) {
            throw new IllegalStateException(target + " exists but is incomplete: delete it and run the tests again");
        }
        Files.move(work, target, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void requireNode() {
        String version;
        try {
            Process process = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            version = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new IllegalStateException("Node.js is not on the PATH: the store emulators of these tests run on"
                    + " Node.js " + NODE_MAJOR + " or later with npm (Debian: apt-get install nodejs npm)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking for the Node.js version", e);
        }
        int major;
        try {
            major = Integer.parseInt(version.replaceFirst("^v", "").split("\\.")[0]);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("cannot read the Node.js version from 'node --version': " + version, e);
        }
        if (major < NODE_MAJOR) {
            throw new IllegalStateException("Node.js " + version + " is too old: the store emulators of these tests"
                    + " need Node.js " + NODE_MAJOR + " or later");
        }
    }

    /** Runs {@code command} in {@code directory} with its output in {@code log}; the exit code, -1 after a timeout. */
    static int run(List<String> command, Path directory, Path log, long minutes) throws IOException {
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        try {
            if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                return -1;
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + command, e);
        }
    }

    private static String hash(Path file) throws IOException {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
