package dev.hoplock.spring.autoconfigure;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.env.PropertySourceLoader;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.mock.env.MockEnvironment;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The "Spring Boot" section of each store's page ({@code docs/stores/<store>.md}) shows only properties that exist:
 * every {@code ```yaml} block of the section is loaded as Boot loads {@code application.yml}, each {@code hoplock.*}
 * key must be a known property (in any relaxed form, as {@link KnownProperties} matches them), the whole binds to
 * hoplock's properties classes, and {@code hoplock.backend} names the page's store. Every full property name the
 * section's text mentions under the store's prefix ({@code hoplock.redis.something}) must exist too, or be the prefix of some.
 * Every {@code ```yaml} and {@code ```properties} block of every page is held to the same: each {@code hoplock.*} key a
 * known property, the whole bound, and no trailing comment inside a {@code .properties} value.
 */
class StoreDocsExamplesTests {

    private static final Pattern SECTION = Pattern.compile("\\n## Spring Boot\\n(.*?)(?=\\n## |\\z)", Pattern.DOTALL);
    private static final Pattern YAML = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern CONFIG = Pattern.compile("```(yaml|properties)\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern MENTION = Pattern.compile("`(hoplock\\.[a-z0-9.-]+)`");

    private final KnownProperties known = KnownProperties.ofHoplock();

    @ParameterizedTest
    @ValueSource(strings = {"s3", "filesystem", "jdbc", "elasticsearch", "redis", "nats", "dynamodb", "azure-blob"})
    void everyPropertyOfTheSpringBootSectionExistsAndBinds(String store) throws IOException {
        String page = Files.readString(Path.of("..", "docs", "stores", store + ".md"));
        Matcher section = SECTION.matcher(page);
        assertThat(section.find()).as("docs/stores/%s.md has a '## Spring Boot' section", store).isTrue();
        List<String> blocks = new ArrayList<>();
        Matcher yaml = YAML.matcher(section.group(1));
        while (yaml.find()) {
            blocks.add(yaml.group(1));
        }
        assertThat(blocks).as("its application.yml examples").isNotEmpty();
        for (String block : blocks) {
            MockEnvironment environment = new MockEnvironment();
            List<PropertySource<?>> sources = new YamlPropertySourceLoader().load(store + ".md",
                    new ByteArrayResource(block.getBytes(StandardCharsets.UTF_8)));
            sources.forEach(environment.getPropertySources()::addFirst);
            List<String> keys = new ArrayList<>();
            for (PropertySource<?> source : sources) {
                for (String name : ((EnumerablePropertySource<?>) source).getPropertyNames()) {
                    keys.add(name);
                }
            }
            assertThat(keys).as("the example sets hoplock properties").isNotEmpty();
            for (String key : keys) {
                assertThat(known.matchElements(elements(key))).as("%s in docs/stores/%s.md is a hoplock property",
                        key, store).isPresent();
            }
            assertThat(environment.getProperty("hoplock.backend")).isEqualTo(store);
            PropertyBindingTests.bind(environment); // fails on a value that does not bind (a misspelled enum, ...)
        }
        String prefix = BackendType.valueOf(store.toUpperCase(java.util.Locale.ROOT).replace('-', '_')).properties();
        Matcher mention = MENTION.matcher(section.group(1));
        while (mention.find()) {
            String name = mention.group(1);
            if (!name.startsWith(prefix)) {
                continue; // a metric (hoplock.backend.requests) or a shared property, not one of the store's
            }
            assertThat(known.names()).as("%s mentioned in docs/stores/%s.md: a property or a group of them", name,
                    store).anyMatch(property -> property.equals(name) || property.startsWith(name + "."));
        }
    }

    /**
     * Every {@code ```yaml} and {@code ```properties} block of every page (README.md, CONTRIBUTING.md, docs/, the
     * samples' READMEs) loads as Boot loads {@code application.yml} or {@code application.properties}, each
     * {@code hoplock.*} key is a known property, the whole binds, and no {@code .properties} value carries a trailing
     * {@code # comment}: {@code .properties} has no end-of-line comments, so the comment would be part of the value
     * (seen by a new user in the JDBC section: the start failed with the comment inside the value).
     */
    @ParameterizedTest
    @MethodSource("pagesWithConfiguration")
    void everyConfigurationBlockOfEveryPageLoadsAndBinds(String file) throws IOException {
        String page = Files.readString(Path.of("..").resolve(file));
        Matcher block = CONFIG.matcher(page);
        int blocks = 0;
        while (block.find()) {
            blocks++;
            boolean properties = block.group(1).equals("properties");
            PropertySourceLoader loader = properties ? new PropertiesPropertySourceLoader()
                    : new YamlPropertySourceLoader();
            List<PropertySource<?>> sources = loader.load(file,
                    new ByteArrayResource(block.group(2).getBytes(StandardCharsets.UTF_8)));
            MockEnvironment environment = new MockEnvironment();
            sources.forEach(environment.getPropertySources()::addFirst);
            for (PropertySource<?> source : sources) {
                for (String key : ((EnumerablePropertySource<?>) source).getPropertyNames()) {
                    if (key.startsWith("hoplock.")) {
                        assertThat(known.matchElements(elements(key))).as("%s in %s is a hoplock property", key, file)
                                .isPresent();
                    }
                    if (properties) {
                        assertThat(String.valueOf(source.getProperty(key))).as("the value of %s in a .properties"
                                + " block of %s (a trailing # comment would be part of the value: put comments on"
                                + " their own line)", key, file).doesNotContainPattern("\\s#");
                    }
                }
            }
            PropertyBindingTests.bind(environment);
        }
        assertThat(blocks).as("%s has configuration examples", file).isPositive();
    }

    /** The pages with at least one {@code ```yaml} or {@code ```properties} block; README.md and the guide must be. */
    static List<String> pagesWithConfiguration() throws IOException {
        Path root = Path.of("..");
        List<String> pages = new ArrayList<>();
        List<Path> candidates = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("CONTRIBUTING.md")));
        for (String dir : List.of("docs", "samples")) {
            try (Stream<Path> walk = Files.walk(root.resolve(dir))) {
                walk.filter(p -> p.toString().endsWith(".md") && !p.toString().contains("/target/"))
                        .sorted().forEach(candidates::add);
            }
        }
        for (Path candidate : candidates) {
            if (Files.exists(candidate) && CONFIG.matcher(Files.readString(candidate)).find()) {
                pages.add(root.relativize(candidate).toString().replace('\\', '/'));
            }
        }
        assertThat(pages).contains("README.md", "docs/spring-boot.md", "docs/stores/jdbc.md");
        return pages;
    }

    private static List<String> elements(String key) {
        ConfigurationPropertyName name = ConfigurationPropertyName.of(key.replaceAll("\\[\\d+]$", ""));
        List<String> elements = new ArrayList<>();
        for (int i = 0; i < name.getNumberOfElements(); i++) {
            elements.add(name.getElement(i, ConfigurationPropertyName.Form.UNIFORM));
        }
        return elements;
    }
}
