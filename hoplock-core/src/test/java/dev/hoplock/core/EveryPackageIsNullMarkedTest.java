package dev.hoplock.core;

import dev.hoplock.core.election.Elector;

import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

/** Nullness is stated: every package of hoplock-core is {@link NullMarked} (nullable things say {@code @Nullable}). */
class EveryPackageIsNullMarkedTest {

    /**
     * The module's classes are a directory when hoplock-core runs its own tests and its jar when core-runs runs them
     * from the test-jar (there Files.walk of the jar found no class and the test failed on an empty list).
     */
    @Test
    void everyPackageOfTheModuleIsNullMarked() throws IOException, ClassNotFoundException, URISyntaxException {
        Path location = Path.of(Elector.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> packages;
        try (FileSystem jar = Files.isDirectory(location) ? null : FileSystems.newFileSystem(location)) {
            Path classes = jar == null ? location : jar.getPath("/");
            try (Stream<Path> walk = Files.walk(classes)) {
                packages = walk.filter(p -> p.toString().endsWith(".class"))
                        .filter(p -> !String.valueOf(p.getFileName()).equals("module-info.class"))
                        .map(p -> classes.relativize(requireNonNull(p.getParent())).toString().replace('/', '.'))
                        .distinct().toList();
            }
        }
        assertThat(packages).contains("dev.hoplock.core", "dev.hoplock.core.backend", "dev.hoplock.core.time",
                "dev.hoplock.core.election", "dev.hoplock.core.lock", "dev.hoplock.core.internal.lease");
        for (String name : packages) {
            Class<?> info = Class.forName(name + ".package-info");
            assertThat(info.isAnnotationPresent(NullMarked.class)).as("package %s is @NullMarked", name).isTrue();
        }
    }
}
