package dev.hoplock.core;

import dev.hoplock.core.election.Elector;

import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Nullness is stated: every package of hoplock-core is {@link NullMarked} (nullable things say {@code @Nullable}). */
class EveryPackageIsNullMarkedTest {

    @Test
    void everyPackageOfTheModuleIsNullMarked() throws IOException, ClassNotFoundException {
        Path classes = Path.of(Elector.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        List<String> packages;
        try (Stream<Path> walk = Files.walk(classes)) {
            packages = walk.filter(p -> p.toString().endsWith(".class"))
                    .filter(p -> !p.getFileName().toString().equals("module-info.class"))
                    .map(p -> classes.relativize(p.getParent()).toString().replace('/', '.'))
                    .distinct().toList();
        }
        assertThat(packages).contains("dev.hoplock.core", "dev.hoplock.core.backend", "dev.hoplock.core.time",
                "dev.hoplock.core.election", "dev.hoplock.core.lock", "dev.hoplock.core.internal.lease");
        for (String name : packages) {
            Class<?> info = Class.forName(name + ".package-info");
            assertThat(info.isAnnotationPresent(NullMarked.class)).as("package %s is @NullMarked", name).isTrue();
        }
    }
}
