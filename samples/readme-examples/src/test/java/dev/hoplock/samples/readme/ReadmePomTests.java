package dev.hoplock.samples.readme;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's recommended pom (its first {@code xml} block: the {@code hoplock-bom} import and the dependencies)
 * works as written in a Spring Boot parent project on Maven 3.8 and 3.9: pasted into a project whose parent is
 * {@code spring-boot-starter-parent} 3.5.7 (with the Boot 3 starter, as the README says), 4.0.7 and 4.1.2, beside
 * dependencies whose versions come from Boot ({@code reactor-core}, {@code jackson-databind}), the project's model
 * builds: no version is missing and no import is unresolvable (issue 23, first-day fix 10).
 *
 * <p>Each case runs {@code mvn validate}, which builds the model (parent, imported BOMs, managed versions) and runs no
 * plugin, with the Maven that runs this build (3.8.7 on these machines) and with Maven 3.9.11 (unpacked from Maven
 * Central by the module's pom). It uses a local repository of its own that holds only this checkout's
 * {@code hoplock-bom} pom, and reads every other pom from the build's local repository (a {@code file:} repository
 * asked first) or, for one the build never needed ({@code spring-boot-starter-parent}), from Maven Central; so it
 * needs no installed hoplock.
 */
class ReadmePomTests {

    private static final Pattern XML_BLOCK = Pattern.compile("```xml\\n(.*?)```", Pattern.DOTALL);

    static Stream<Arguments> mavenAndBoot() {
        List<Arguments> cases = new ArrayList<>();
        List<Arguments> mavens = List.of(
                Arguments.of(System.getProperty("readme.maven.running", ""), System.getProperty("readme.maven.version", "")),
                Arguments.of(System.getProperty("readme.maven.39", ""), "3.9.11"));
        for (Arguments maven : mavens) {
            for (String boot : List.of("3.5.7", "4.0.7", "4.1.2")) {
                cases.add(Arguments.of(maven.get()[1], maven.get()[0], boot));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "Maven {0}, Spring Boot {2}")
    @MethodSource("mavenAndBoot")
    void theReadmePomBuildsInABootParentProject(String mavenVersion, String mavenHome, String boot,
            @org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        assertThat(Path.of(mavenHome, "bin", "mvn")).as("the Maven to run").isExecutable();
        Path project = Files.createDirectories(dir.resolve("app"));
        Files.writeString(project.resolve("pom.xml"), applicationPom(boot), StandardCharsets.UTF_8);
        Path repository = Files.createDirectories(dir.resolve("repository"));
        Path bom = Files.createDirectories(repository.resolve("dev/hoplock/hoplock-bom/0.1.0-SNAPSHOT"));
        Files.copy(DocsFiles.root().resolve("hoplock-bom/pom.xml"), bom.resolve("hoplock-bom-0.1.0-SNAPSHOT.pom"));
        Path settings = dir.resolve("settings.xml");
        Files.writeString(settings, """
                <settings>
                  <profiles>
                    <profile>
                      <id>build-repository</id>
                      <repositories>
                        <repository><id>build-repository</id><url>%s</url></repository>
                      </repositories>
                    </profile>
                  </profiles>
                  <activeProfiles><activeProfile>build-repository</activeProfile></activeProfiles>
                </settings>
                """.formatted(Path.of(Objects.requireNonNull(System.getProperty("readme.maven.repository"),
                "readme.maven.repository (set by the module's pom)")).toUri()), StandardCharsets.UTF_8);
        Path log = dir.resolve("mvn.log");
        Process mvn = new ProcessBuilder(Path.of(mavenHome, "bin", "mvn").toString(), "-B", "-V", "-ntp", "-s",
                settings.toString(), "-Dmaven.repo.local=" + repository, "validate").directory(project.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(mvn.waitFor(3, TimeUnit.MINUTES)).as("mvn validate ended").isTrue();
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(output).as("Maven's output").contains("Apache Maven " + mavenVersion, "BUILD SUCCESS")
                .doesNotContain("is missing", "Non-resolvable");
        assertThat(mvn.exitValue()).as("mvn validate's exit code").isZero();
    }

    /** A Boot parent project with the README's first xml block and two dependencies versioned by Boot. */
    static String applicationPom(String boot) throws IOException {
        String readme = Files.readString(DocsFiles.root().resolve("README.md"), StandardCharsets.UTF_8);
        Matcher block = XML_BLOCK.matcher(readme);
        assertThat(block.find()).as("the README's recommended pom (an xml block)").isTrue();
        String recommended = block.group(1);
        assertThat(recommended).contains("hoplock-bom", "<dependencies>");
        if (boot.startsWith("3.")) {
            // The README: Spring Boot 3.5 takes hoplock-spring-boot3-starter.
            recommended = recommended.replace("<artifactId>hoplock-spring-boot-starter</artifactId>",
                    "<artifactId>hoplock-spring-boot3-starter</artifactId>");
        }
        String versionedByBoot = """
                  <dependency>
                    <groupId>io.projectreactor</groupId>
                    <artifactId>reactor-core</artifactId>
                  </dependency>
                  <dependency>
                    <groupId>com.fasterxml.jackson.core</groupId>
                    <artifactId>jackson-databind</artifactId>
                  </dependency>
                </dependencies>""";
        int end = recommended.lastIndexOf("</dependencies>");
        recommended = recommended.substring(0, end) + versionedByBoot + recommended.substring(end
                + "</dependencies>".length());
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <parent>
                    <groupId>org.springframework.boot</groupId>
                    <artifactId>spring-boot-starter-parent</artifactId>
                    <version>%s</version>
                    <relativePath/>
                  </parent>
                  <groupId>com.example</groupId>
                  <artifactId>reports</artifactId>
                  <version>1.0.0</version>
                %s
                </project>
                """.formatted(boot, recommended);
    }
}
