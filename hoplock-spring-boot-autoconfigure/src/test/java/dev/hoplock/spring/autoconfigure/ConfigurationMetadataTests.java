package dev.hoplock.spring.autoconfigure;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code hoplock.*} properties are a contract with every application and every IDE: their names, types, defaults,
 * descriptions, deprecations and hints, as Spring Boot's configuration processor writes them into
 * {@code META-INF/spring-configuration-metadata.json} (with {@code additional-spring-configuration-metadata.json}
 * merged in), must not change when the classes that declare them are reorganised. The baseline is the metadata this
 * module generated before its properties were split per store and per feature (issue 20, item 4), kept in
 * {@code src/test/resources/metadata-baseline/}.
 *
 * <p>What may differ, and only that: which class declares a property (a property's {@code sourceType}; a group's
 * {@code type}, {@code sourceType} and {@code sourceMethod}, which name the declaring class and its getter), and the
 * types listed in {@link #MOVED_TYPES}, whose classes moved package (the old name maps to the new one, so that any
 * other change of type still fails). Order does not matter.
 */
class ConfigurationMetadataTests {

    private static final String GENERATED = "META-INF/spring-configuration-metadata.json";
    private static final String BASELINE = "/metadata-baseline/spring-configuration-metadata.json";

    /**
     * Value types whose class moved package since the baseline, old name to new name: the two enums of the annotations,
     * which moved with them into the package of their gate (issue 20, item 4).
     */
    static final Map<String, String> MOVED_TYPES = Map.of(
            "dev.hoplock.spring.annotation.OnNonLeader", "dev.hoplock.spring.leader.OnNonLeader",
            "dev.hoplock.spring.annotation.WhenLockHeld", "dev.hoplock.spring.lock.WhenLockHeld");

    @Test
    void everyPropertyKeepsItsNameTypeDefaultDescriptionAndDeprecation() throws IOException {
        Map<String, Map<String, Object>> before = properties(baseline(), true);
        Map<String, Map<String, Object>> after = properties(generated(), false);

        assertThat(after.keySet()).as("property names").containsExactlyInAnyOrderElementsOf(before.keySet());
        assertThat(after).as("every property but its sourceType").isEqualTo(before);
    }

    @Test
    void everyGroupKeepsItsName() throws IOException {
        assertThat(names(generated(), "$.groups[*].name")).isEqualTo(names(baseline(), "$.groups[*].name"));
    }

    @Test
    void everyHintAndIgnoredPropertyIsKept() throws IOException {
        assertThat(sorted(JsonPath.read(generated(), "$.hints")))
                .isEqualTo(sorted(JsonPath.read(baseline(), "$.hints")));
        assertThat(JsonPath.<Object>read(generated(), "$.ignored")).isEqualTo(JsonPath.read(baseline(), "$.ignored"));
    }

    /** The comparison looks at what matters: a changed description or default of one property is a difference. */
    @Test
    void theComparisonSeesAChangedDescriptionOrDefault() throws IOException {
        Map<String, Map<String, Object>> before = properties(baseline(), true);
        Map<String, Map<String, Object>> changed = properties(baseline()
                .replace("How long a written lease lasts, inherited", "How long a lease lasts, inherited"), true);
        assertThat(changed).isNotEqualTo(before);
        assertThat(before.get("hoplock.ttl")).containsEntry("defaultValue", "30s").containsKey("description")
                .doesNotContainKey("sourceType");
        assertThat(before.get("hoplock.s3.api-call-timeout")).containsEntry("type", "java.time.Duration")
                .containsEntry("defaultValue", "10s");
    }

    /** Properties by name, each without its sourceType; on the baseline's side, moved types get their new name. */
    private static Map<String, Map<String, Object>> properties(String json, boolean baseline) {
        List<Map<String, Object>> all = JsonPath.read(json, "$.properties");
        Map<String, Map<String, Object>> byName = new TreeMap<>();
        for (Map<String, Object> property : all) {
            Map<String, Object> kept = new TreeMap<>(property);
            kept.remove("sourceType");
            if (baseline && kept.get("type") instanceof String type) {
                kept.put("type", MOVED_TYPES.getOrDefault(type, type));
            }
            Object previous = byName.put((String) property.get("name"), kept);
            assertThat(previous).as("property %s declared twice", property.get("name")).isNull();
        }
        return byName;
    }

    private static Set<String> names(String json, String path) {
        return new TreeSet<>(JsonPath.<List<String>>read(json, path));
    }

    private static Set<String> sorted(List<Map<String, Object>> entries) {
        Set<String> text = new TreeSet<>();
        for (Map<String, Object> entry : entries) {
            text.add(new TreeMap<>(entry).toString());
        }
        return text;
    }

    private static String baseline() throws IOException {
        try (InputStream in = ConfigurationMetadataTests.class.getResourceAsStream(BASELINE)) {
            assertThat(in).as(BASELINE).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The metadata of this module's own classes (not that of another jar on the class path). */
    static String generated() throws IOException {
        URL classes = HoplockProperties.class.getProtectionDomain().getCodeSource().getLocation();
        List<URL> found = new ArrayList<>();
        for (URL url : Collections.list(
                ConfigurationMetadataTests.class.getClassLoader().getResources(GENERATED))) {
            if (url.toString().startsWith(classes.toString())) {
                found.add(url);
            }
        }
        assertThat(found).as("%s under %s", GENERATED, classes).hasSize(1);
        try (InputStream in = found.get(0).openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
