package dev.hoplock.core;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packages under {@code dev.hoplock.core.internal} are hoplock-core's own: {@code module-info.java} does not export
 * them, and no other module of this repository may import or name them (main and test sources, Java and Kotlin, and
 * the Java examples in README.md and docs/, which the build compiles). Another module that needs one of their types
 * needs an API for it instead.
 */
class InternalPackagesStayInternalTest {

    private static final String INTERNAL = "dev.hoplock.core.internal";
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

    @Test
    void noOtherModuleUsesACoreInternalPackage() throws IOException {
        Path repository = requireNonNull(Path.of("").toAbsolutePath().getParent(), "hoplock-core has a parent");
        assertThat(repository.resolve("hoplock-core/pom.xml")).as("run from hoplock-core").exists();
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(repository)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                Path relative = repository.relativize(file);
                if (skipped(relative)) {
                    continue;
                }
                String name = file.getFileName().toString();
                if (name.endsWith(".java") || name.endsWith(".kt")) {
                    if (Files.readString(file).contains(INTERNAL)) {
                        offenders.add(relative.toString());
                    }
                } else if (name.endsWith(".md")) {
                    Matcher block = JAVA_BLOCK.matcher(Files.readString(file));
                    while (block.find()) {
                        if (block.group(1).contains(INTERNAL)) {
                            offenders.add(relative + " (a Java example)");
                            break;
                        }
                    }
                }
            }
        }
        assertThat(offenders).as("files outside hoplock-core that use %s", INTERNAL).isEmpty();
    }

    private static boolean skipped(Path relative) {
        String first = relative.getName(0).toString();
        for (Path part : relative) {
            String name = part.toString();
            if (name.equals("target") || name.equals("node_modules") || name.startsWith(".")) {
                return true;
            }
        }
        return first.equals("hoplock-core");
    }
}
