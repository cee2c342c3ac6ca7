package dev.hoplock.test;

import org.jspecify.annotations.NullMarked;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The check that a module states nullness: every package of its compiled classes has a {@code package-info} marked
 * {@link NullMarked}, so that whatever may be null says {@code @Nullable}. For a module's own test, run where its
 * classes are a directory (as {@code target/classes} is in a Maven build), not a jar.
 */
public final class NullMarkedPackages {

    private NullMarkedPackages() {
    }

    /**
     * Checks every package under the class-path directory that holds {@code anyClassOfTheModule}.
     *
     * @return the names of the packages checked, never empty, so that a caller can also say which must be there
     * @throws AssertionError naming the first package without a {@code @NullMarked} package-info, or when the
     *                        classes are not a directory
     */
    public static List<String> assertEveryPackageOf(Class<?> anyClassOfTheModule) {
        Path classes = classesDirectory(anyClassOfTheModule);
        List<String> packages;
        try (Stream<Path> walk = Files.walk(classes)) {
            // module-info.class describes the module, not a package: it is the one class file outside them.
            packages = walk.filter(p -> p.toString().endsWith(".class")
                            && !p.getFileName().toString().equals("module-info.class"))
                    .map(p -> classes.relativize(p.getParent()).toString().replace('/', '.'))
                    .distinct().sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + classes, e);
        }
        assertThat(packages).as("packages under %s", classes).isNotEmpty();
        for (String name : packages) {
            Class<?> info;
            try {
                info = Class.forName(name + ".package-info", false, anyClassOfTheModule.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new AssertionError("package " + name + " has no package-info, so it is not @NullMarked", e);
            }
            assertThat(info.isAnnotationPresent(NullMarked.class)).as("package %s is @NullMarked", name).isTrue();
        }
        return packages;
    }

    private static Path classesDirectory(Class<?> type) {
        Path location;
        try {
            location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("the class-path entry of " + type.getName() + " is not a path", e);
        }
        assertThat(Files.isDirectory(location)).as("%s is loaded from a directory of classes, not %s",
                type.getName(), location).isTrue();
        return location;
    }
}
