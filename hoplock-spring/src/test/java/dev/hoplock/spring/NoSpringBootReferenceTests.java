package dev.hoplock.spring;

import dev.hoplock.spring.leader.HoplockElections;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * hoplock-spring is the plain-Spring layer: nothing in it may refer to Spring Boot, so that a Spring Framework
 * application can use it and a Boot 3.5 variant of the auto-configuration can reuse it unchanged. The check reads the
 * compiled classes' constant pools (every class, annotation and method a class refers to is named there as
 * {@code org/springframework/boot/...}), so an import, a fully qualified name or an annotation all fail it.
 */
class NoSpringBootReferenceTests {

    private static final byte[] BOOT = "org/springframework/boot".getBytes(StandardCharsets.UTF_8);

    @Test
    void noCompiledClassOfTheModuleRefersToSpringBoot() throws IOException {
        Path classes = Path.of(HoplockElections.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        List<Path> classFiles;
        try (Stream<Path> walk = Files.walk(classes)) {
            classFiles = walk.filter(p -> p.toString().endsWith(".class")).toList();
        }
        assertThat(classFiles).as("the module's classes under %s", classes).isNotEmpty();
        List<Path> offenders = classFiles.stream().filter(NoSpringBootReferenceTests::refersToBoot).toList();
        assertThat(offenders).as("classes of hoplock-spring that refer to org.springframework.boot").isEmpty();
    }

    @Test
    void theCheckFindsABootReference() {
        byte[] pool = "Lorg/springframework/boot/autoconfigure/AutoConfiguration;".getBytes(StandardCharsets.UTF_8);
        assertThat(contains(pool, BOOT)).isTrue();
        assertThat(contains("Lorg/springframework/context/ApplicationEvent;".getBytes(StandardCharsets.UTF_8), BOOT))
                .isFalse();
    }

    private static boolean refersToBoot(Path classFile) {
        try {
            return contains(Files.readAllBytes(classFile), BOOT);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + classFile, e);
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
