package dev.hoplock.nats.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A {@code nats-server} binary the tests start, with the lines it gets inside its {@code jetstream} block.
 *
 * <p>{@link #configured()} is the binary of the default suite: Debian's package on the PATH (nats-server 2.9.10 on
 * Debian 12), or the system property {@code hoplock.nats.server}, with the system property
 * {@code hoplock.nats.jetstream}. {@link #clusterCapable()} is one whose clustered compare-and-swap is atomic
 * (2.9.21 or later): the configured one when it is, otherwise nats-server 2.10 from Debian 13's package, fetched once
 * into the module's {@code target/} by {@code scripts/nats-server-2.10.sh} (the system property
 * {@code hoplock.nats.fetchScript} names it), with {@code sync_interval: always}. A fetch that fails is an error that
 * names the script and what it needs (deb.debian.org), never a skipped test.
 */
public record NatsBinary(String path, String jetStreamOptions) {

    private static @Nullable NatsBinary fetched;

    public NatsBinary {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(jetStreamOptions, "jetStreamOptions");
    }

    /** The binary of the default suite (see the type's Javadoc). */
    public static NatsBinary configured() {
        return new NatsBinary(System.getProperty("hoplock.nats.server", "nats-server"),
                System.getProperty("hoplock.nats.jetstream", ""));
    }

    /** A binary whose clustered compare-and-swap is atomic (see the type's Javadoc). */
    public static synchronized NatsBinary clusterCapable() throws IOException, InterruptedException {
        NatsBinary configured = configured();
        if (configured.atLeast(2, 9, 21)) {
            return configured;
        }
        NatsBinary binary = fetched;
        if (binary == null) {
            binary = new NatsBinary(fetch(), "sync_interval: always");
            fetched = binary;
        }
        return binary;
    }

    private static String fetch() throws IOException, InterruptedException {
        String script = System.getProperty("hoplock.nats.fetchScript", "../scripts/nats-server-2.10.sh");
        Path into = Path.of(System.getProperty("hoplock.test.dir", "target"), "nats-server-2.10");
        Path log = Files.createTempFile("nats-fetch", ".log");
        Process p = new ProcessBuilder(List.of("bash", script, into.toAbsolutePath().toString()))
                .redirectError(log.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        int exit = p.waitFor();
        String[] lines = out.split("\n");
        String binary = lines[lines.length - 1];
        if (exit != 0 || binary.isEmpty() || !Files.isExecutable(Path.of(binary))) {
            throw new IOException("could not fetch nats-server 2.10 with " + script + " (exit " + exit + "): it"
                    + " downloads Debian 13's nats-server package from deb.debian.org with apt-get; run it by hand to"
                    + " see why, or pass -Dhoplock.nats.server=<a nats-server 2.9.21 or later>. Its output:\n"
                    + Files.readString(log, StandardCharsets.UTF_8));
        }
        return binary;
    }

    /** The version, as {@code nats-server --version} prints it, without the v (for example {@code 2.9.10}). */
    public String version() throws IOException, InterruptedException {
        Process p = new ProcessBuilder(path, "--version").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor();
        return out.replaceAll(".*v", "");
    }

    /** True when the version is at least {@code major.minor.patch}. */
    public boolean atLeast(int major, int minor, int patch) throws IOException, InterruptedException {
        String[] parts = version().split("[.-]");
        int[] v = {Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2])};
        return Arrays.compare(v, new int[] {major, minor, patch}) >= 0;
    }
}
