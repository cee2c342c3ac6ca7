package dev.hoplock.spring.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanUtils;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.util.ClassUtils;

import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A representative {@code application.yml} (every {@code hoplock.*} property set, durations with and without units, two
 * named elections; no system property or environment variable) binds to exactly the values it bound to before the properties were split per store and per feature
 * (issue 20, item 4), and an empty environment to exactly the same defaults. The values are read back from every
 * {@code @ConfigurationProperties} class of hoplock's auto-configuration, found on the class path and each bound at its
 * own prefix as Boot binds it, through their getters, as a flat list {@code property=value}; the expected lists are
 * {@code src/test/resources/binding/*.expected}. On a difference the actual list is written to
 * {@code target/binding/} for comparison.
 */
class PropertyBindingTests {

    @Test
    void aRepresentativeApplicationYmlBindsToTheSameValues() throws IOException {
        MockEnvironment environment = new MockEnvironment();
        List<PropertySource<?>> yaml = new YamlPropertySourceLoader().load("application.yml",
                new ClassPathResource("binding/application.yml"));
        yaml.forEach(environment.getPropertySources()::addFirst);
        assertBoundAsExpected(environment, "bound-values");
    }

    @Test
    void anEmptyEnvironmentBindsToTheSameDefaults() throws IOException {
        assertBoundAsExpected(new MockEnvironment(), "default-values");
    }

    /** The walk reads nested groups, maps and plain values, so a changed value anywhere shows. */
    @Test
    void theListHasEveryKindOfValue() {
        Map<String, String> values = bind(new MockEnvironment());
        assertThat(values).containsEntry("hoplock.ttl", "PT30S").containsEntry("hoplock.s3.prefix", "")
                .containsEntry("hoplock.locks.when-held", "SKIP").containsKey("hoplock.ownership.group");
    }

    private static void assertBoundAsExpected(ConfigurableEnvironment environment, String name) throws IOException {
        String actual = text(bind(environment));
        String expected;
        try (InputStream in = PropertyBindingTests.class.getResourceAsStream("/binding/" + name + ".expected")) {
            expected = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (!actual.equals(expected)) {
            Path written = Path.of(System.getProperty("hoplock.test.dir", "target"), "binding", name + ".actual");
            Files.createDirectories(written.getParent());
            Files.writeString(written, actual);
        }
        assertThat(actual).as("bound values (actual list in target/binding/%s.actual)", name).isEqualTo(expected);
    }

    /** Every value of every hoplock properties class, each bound at its prefix, by property name. */
    static Map<String, String> bind(ConfigurableEnvironment environment) {
        Binder binder = Binder.get(environment);
        Map<String, String> values = new TreeMap<>();
        for (Class<?> type : propertiesClasses()) {
            String prefix = MergedAnnotations.from(type).get(ConfigurationProperties.class)
                    .getValue(MergedAnnotation.VALUE, String.class).orElseThrow();
            Object bound = binder.bindOrCreate(prefix, Bindable.of(type));
            walk(bound, prefix, values);
        }
        return values;
    }

    /** The {@code @ConfigurationProperties} classes of hoplock's main code. */
    static List<Class<?>> propertiesClasses() {
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(ConfigurationProperties.class));
        List<Class<?>> found = new ArrayList<>();
        for (BeanDefinition candidate : scanner.findCandidateComponents("dev.hoplock.spring")) {
            found.add(ClassUtils.resolveClassName(
                    Objects.requireNonNull(candidate.getBeanClassName(), "a scanned class"),
                    PropertyBindingTests.class.getClassLoader()));
        }
        assertThat(found).as("@ConfigurationProperties classes").isNotEmpty();
        return found;
    }

    private static void walk(Object bean, String prefix, Map<String, String> values) {
        for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(bean.getClass())) {
            if (property.getReadMethod() == null || property.getName().equals("class")) {
                continue;
            }
            String name = prefix + "." + dashed(property.getName());
            Object value;
            try {
                value = property.getReadMethod().invoke(bean);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(name, e);
            }
            if (value instanceof Map<?, ?> map) {
                new TreeMap<>(map).forEach((key, entry) -> {
                    if (entry == null) {
                        values.put(name + "." + key, "null");
                    } else {
                        walk(entry, name + "." + key, values);
                    }
                });
            } else if (value != null && !value.getClass().isEnum()
                    && value.getClass().getName().startsWith("dev.hoplock.spring.")) {
                walk(value, name, values);
            } else {
                values.put(name, String.valueOf(value));
            }
        }
    }

    private static String dashed(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private static String text(Map<String, String> values) {
        StringBuilder text = new StringBuilder();
        values.forEach((name, value) -> text.append(name).append('=').append(value).append('\n'));
        return text.toString();
    }
}
