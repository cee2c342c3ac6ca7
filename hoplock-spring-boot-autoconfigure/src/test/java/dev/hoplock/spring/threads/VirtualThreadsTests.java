package dev.hoplock.spring.threads;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code spring.threads.virtual.enabled=true}: the {@code @LeaderOnly} gate, its interrupt on loss and
 * {@link dev.hoplock.spring.leader.LeaderContextHolder} behave on virtual threads as on platform threads. The build runs on
 * Java 17, which has no virtual threads, so the application runs in a child JVM of Java 21 or later
 * ({@link VirtualThreadsChild}): the one running the build if it is one, else {@code HOPLOCK_JDK21_HOME}, else the
 * newest JDK of 21 or later under {@code /usr/lib/jvm} (this machine kind has Temurin's there). Skipped, saying so,
 * when there is none.
 */
class VirtualThreadsTests {

    @TempDir
    Path directory;

    @Test
    void theGateInterruptsAndTheHolderWorkOnVirtualThreads() throws Exception {
        Optional<Path> java = javaOf21OrLater();
        assumeTrue(java.isPresent(), "no JDK of Java 21 or later (set HOPLOCK_JDK21_HOME): virtual threads not tested");
        Path out = directory.resolve("out.txt");
        Path err = directory.resolve("err.txt");
        Process process = new ProcessBuilder(java.get().toString(), "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), VirtualThreadsChild.class.getName())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        boolean exited = process.waitFor(120, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly();
        }
        String printed = Files.readString(out);
        assertThat(exited).as("the child exited; stdout:%n%s%nstderr:%n%s", printed, Files.readString(err)).isTrue();
        Map<String, Map<String, String>> found = parse(printed);
        assertThat(found).as("stdout:%n%s%nstderr:%n%s", printed, Files.readString(err))
                .containsKeys("LEADER", "SCHEDULED", "HELD", "SKIPPED", "DONE");
        String generation = found.get("LEADER").get("generation");

        assertThat(found.get("SCHEDULED")).as("a @Scheduled @LeaderOnly job on a virtual thread sees its lease")
                .containsEntry("virtual", "true").containsEntry("lease", generation);
        assertThat(found.get("HELD")).as("an @Async @LeaderOnly call on a virtual thread: lease inside, interrupted"
                        + " by the step-down")
                .containsEntry("virtual", "true").containsEntry("lease", generation)
                .containsEntry("interrupted", "true").containsEntry("leadingAfterLoss", "false");
        assertThat(found.get("SKIPPED")).as("after the step-down the gate skips the call")
                .containsEntry("leader", "false").containsEntry("ran", "false").containsEntry("result", "null");
    }

    private static Map<String, Map<String, String>> parse(String printed) {
        Map<String, Map<String, String>> found = new LinkedHashMap<>();
        for (String line : printed.split("\n")) {
            String[] words = line.trim().split(" ");
            if (words.length == 0 || !words[0].matches("[A-Z]+")) {
                continue;
            }
            Map<String, String> values = new LinkedHashMap<>();
            for (int i = 1; i < words.length; i++) {
                int eq = words[i].indexOf('=');
                if (eq > 0) {
                    values.put(words[i].substring(0, eq), words[i].substring(eq + 1));
                }
            }
            found.put(words[0], values);
        }
        return found;
    }

    /** A {@code java} launcher of Java 21 or later, if this machine has one. */
    static Optional<Path> javaOf21OrLater() throws IOException {
        if (Runtime.version().feature() >= 21) {
            return Optional.of(Path.of(System.getProperty("java.home"), "bin", "java"));
        }
        List<Path> homes = new ArrayList<>();
        String configured = System.getenv("HOPLOCK_JDK21_HOME");
        if (configured != null && !configured.isBlank()) {
            homes.add(Path.of(configured));
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> listed = Files.list(jvms)) {
                listed.sorted((a, b) -> Integer.compare(feature(b), feature(a))).forEach(homes::add);
            }
        }
        return homes.stream().filter(home -> feature(home) >= 21)
                .map(home -> home.resolve("bin").resolve("java")).filter(Files::isExecutable).findFirst();
    }

    /** The feature version a JDK's {@code release} file names, 0 if unknown. */
    private static int feature(Path home) {
        try {
            for (String line : Files.readAllLines(home.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    return Integer.parseInt(version.split("[.+-]")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }
}
