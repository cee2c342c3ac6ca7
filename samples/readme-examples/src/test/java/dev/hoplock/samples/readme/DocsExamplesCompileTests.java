package dev.hoplock.samples.readme;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code ```java} block of README.md and of every page under docs/ ({@link DocsFiles}) compiles against the
 * starter, the store modules, hoplock-test and their dependencies, so that an example cannot rot or lose an import.
 *
 * <p>A block that declares a type ({@code class}, {@code record}, ...) is compiled as it is, a whole source file. Any
 * other block is leading {@code import} lines followed by statements, compiled as the body of a method (which may
 * throw). A block preceded by {@code <!-- compile: skip -->} is not compiled; {@link #SKIPPED} lists those, so that
 * skipping one more is a visible decision.
 */
class DocsExamplesCompileTests {

    /** The first line of each block that is deliberately not compiled. */
    private static final List<String> SKIPPED = List.of(
            // docs/testing-your-store.md: fragments around the reader's own MyBackend, without imports
            "class MyBackendContractTest extends BackendContractTest {",
            "class MyBackendElectorFuzzTest extends ElectorFuzzTest {",
            "class MyLockContractTest extends LockContractTest {");

    private static final Pattern BLOCK = Pattern.compile("(?:<!-- compile: (skip) -->\\s*\\n)?```java\\n(.*?)```",
            Pattern.DOTALL);
    private static final Pattern TYPE = Pattern.compile(
            "^(?:public |final |abstract |sealed )*(?:class|record|interface|enum) (\\w+)", Pattern.MULTILINE);
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "^public (?:final |abstract |sealed )*(?:class|record|interface|enum) (\\w+)", Pattern.MULTILINE);

    /** One {@code ```java} block: its file, where it starts, its text, whether it is marked to skip. */
    record Block(Path file, int line, String code, boolean skip) {
        String firstLine() {
            return code.lines().findFirst().orElse("");
        }
    }

    @TestFactory
    Stream<DynamicTest> everyJavaBlockOfTheDocsCompiles(@TempDir Path output) throws IOException {
        List<Block> blocks = blocks();
        assertThat(blocks).as("README.md and docs/ have Java examples").hasSizeGreaterThan(20);
        assertThat(blocks).as("README.md has a Java example").anyMatch(block -> block.file().equals(Path.of("README.md")));
        return blocks.stream().filter(block -> !block.skip()).map(block -> DynamicTest.dynamicTest(
                block.file() + " line " + block.line() + ": " + block.firstLine(), () -> compile(block, output)));
    }

    @Test
    void onlyTheListedBlocksAreSkipped() throws IOException {
        assertThat(blocks().stream().filter(Block::skip).map(Block::firstLine).toList())
                .containsExactlyElementsOf(SKIPPED);
    }

    static List<Block> blocks() throws IOException {
        List<Block> blocks = new ArrayList<>();
        for (Path file : DocsFiles.markdown()) {
            String text = Files.readString(DocsFiles.root().resolve(file));
            Matcher matcher = BLOCK.matcher(text);
            while (matcher.find()) {
                int line = (int) text.substring(0, matcher.start(2)).lines().count() + 1;
                blocks.add(new Block(file, line, matcher.group(2), matcher.group(1) != null));
            }
        }
        return blocks;
    }

    private static void compile(Block block, Path output) throws IOException {
        String source;
        String fileName;
        if (TYPE.matcher(block.code()).find()) {
            source = block.code();
            Matcher publicType = PUBLIC_TYPE.matcher(source);
            fileName = publicType.find() ? publicType.group(1) : "DocsExample" + block.line();
        } else {
            List<String> imports = new ArrayList<>();
            List<String> statements = new ArrayList<>();
            for (String line : block.code().lines().toList()) {
                if (statements.isEmpty() && (line.startsWith("import ") || line.isBlank())) {
                    imports.add(line);
                } else {
                    statements.add(line);
                }
            }
            fileName = "DocsExample" + block.line();
            source = String.join("\n", imports) + "\n\nclass " + fileName + " {\n    void example() throws Exception {\n"
                    + String.join("\n", statements) + "\n    }\n}\n";
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Path classes = Files.createDirectories(
                output.resolve(block.file().toString().replaceAll("[^A-Za-z0-9]", "_") + "_line" + block.line()));
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT,
                StandardCharsets.UTF_8)) {
            String source0 = source;
            JavaFileObject unit = new SimpleJavaFileObject(URI.create("string:///" + fileName + ".java"),
                    JavaFileObject.Kind.SOURCE) {
                @Override
                public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                    return source0;
                }
            };
            List<String> options = List.of("--release", "17", "-proc:none", "-classpath", classPath(), "-d",
                    classes.toString());
            boolean compiled = compiler.getTask(null, files, diagnostics, options, null, List.of(unit)).call();
            String errors = diagnostics.getDiagnostics().stream()
                    .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                    .map(d -> "line " + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT))
                    .collect(Collectors.joining("\n"));
            assertThat(compiled).as("the example at %s line %d does not compile:%n%s%n--- compiled as:%n%s",
                    block.file(), block.line(), errors, source).isTrue();
        }
    }

    private static String classPath() throws IOException {
        String dependencies = Files.readString(Path.of(System.getProperty("readme.classpath.file",
                "target/readme-classpath.txt"))).trim();
        return dependencies + java.io.File.pathSeparator + Path.of("target/classes").toAbsolutePath();
    }
}
