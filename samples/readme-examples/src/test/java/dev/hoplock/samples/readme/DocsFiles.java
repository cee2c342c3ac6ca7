package dev.hoplock.samples.readme;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The documentation the build checks: README.md and every {@code .md} file under docs/, found from the repository root
 * (system property {@code docs.root}, set by the module's pom). Paths are relative to that root, sorted.
 */
final class DocsFiles {

    private DocsFiles() {
    }

    static Path root() {
        return Path.of(System.getProperty("docs.root", "../..")).toAbsolutePath().normalize();
    }

    static List<Path> markdown() throws IOException {
        Path root = root();
        List<Path> files = new ArrayList<>();
        files.add(Path.of("README.md"));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).map(root::relativize).sorted().forEach(files::add);
        }
        return files;
    }
}
