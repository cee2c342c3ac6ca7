package dev.hoplock.spring.test;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Java examples of docs/testing-your-application.md are the test classes of {@code com.example.billing} in this
 * module, character for character, so they do not only compile (DocsExamplesCompileTests) but run and pass in every
 * build.
 */
class DocsExamplesRunTests {

    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);
    private static final List<String> EXAMPLES = List.of("BillingTests", "VirtualTimeTests", "NightlyExportTests",
            "LocksAndTenantsTests");

    @Test
    void everyExampleOfThePageIsATestOfThisModule() throws IOException {
        String page = Files.readString(Path.of("../docs/testing-your-application.md"));
        List<String> blocks = new ArrayList<>();
        Matcher matcher = JAVA_BLOCK.matcher(page);
        while (matcher.find()) {
            blocks.add(matcher.group(1));
        }
        List<String> tests = new ArrayList<>();
        for (String example : EXAMPLES) {
            tests.add(Files.readString(Path.of("src/test/java/com/example/billing/" + example + ".java")));
        }
        assertThat(blocks).as("the page's Java blocks, in order, are the example tests %s", EXAMPLES)
                .containsExactlyElementsOf(tests);
    }
}
