package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.autoconfigure.azure.AzureBlobProperties;
import dev.hoplock.spring.autoconfigure.dynamodb.DynamoDbProperties;
import dev.hoplock.spring.autoconfigure.elasticsearch.ElasticsearchProperties;
import dev.hoplock.spring.autoconfigure.filesystem.FilesystemProperties;
import dev.hoplock.spring.autoconfigure.jdbc.JdbcFenceProperties;
import dev.hoplock.spring.autoconfigure.jdbc.JdbcProperties;
import dev.hoplock.spring.autoconfigure.nats.NatsProperties;
import dev.hoplock.spring.autoconfigure.redis.RedisProperties;
import dev.hoplock.spring.autoconfigure.s3.S3Properties;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Every {@code hoplock.*} property there is, derived from the {@code @ConfigurationProperties} classes themselves (so
 * it cannot drift from what binds: {@link #CLASSES}, each at the prefix it declares), and the matching of a key as
 * written by a user, in any of Boot's relaxed forms, against them. The classes are loaded whether or not their
 * store's module is present: none refers to a type of a store module.
 *
 * <p>A map such as {@code hoplock.elections} contributes {@code hoplock.elections.*.ttl} and its other sub-keys: the
 * {@code *} matches any election name. Matching follows Boot's relaxed binding: case and dashes do not matter
 * ({@code hoplock.releaseTimeout}, {@code hoplock.RELEASE_TIMEOUT}), and an environment variable matches when its name
 * without underscores equals the property's without punctuation ({@code HOPLOCK_RELEASE_TIMEOUT},
 * {@code HOPLOCK_RELEASETIMEOUT}).
 */
final class KnownProperties {

    private static final Pattern NOT_ALPHANUMERIC = Pattern.compile("[^a-z0-9]");

    /**
     * Every {@code @ConfigurationProperties} class of hoplock's auto-configuration: the shared settings, each
     * feature's and each store's. A new store's properties class is added here (a test fails when one is missing).
     */
    static final List<Class<?>> CLASSES = List.of(HoplockProperties.class, LockProperties.class,
            OwnershipProperties.class, S3Properties.class, JdbcProperties.class, JdbcFenceProperties.class,
            ElasticsearchProperties.class, FilesystemProperties.class, RedisProperties.class,
            NatsProperties.class, DynamoDbProperties.class, AzureBlobProperties.class);

    /** The known names in their canonical form, for example {@code hoplock.elections.*.release-timeout}. */
    private final List<String> names;

    /** Each known name as a list of elements in Boot's uniform form (lowercase letters and digits). */
    private final List<List<String>> uniform;

    /** Each known name as a regular expression over an environment variable's squashed name. */
    private final List<Pattern> squashed;

    private KnownProperties(List<String> names) {
        this.names = List.copyOf(names);
        this.uniform = names.stream().map(name -> List.of(name.split("\\."))).map(elements -> elements.stream()
                .map(KnownProperties::uniformElement).toList()).toList();
        this.squashed = names.stream().map(name -> Pattern.compile(java.util.Arrays.stream(name.split("\\."))
                .map(element -> element.equals("*") ? "[a-z0-9]+" : uniformElement(element))
                .reduce("", String::concat))).toList();
    }

    /** The properties of every class of {@link #CLASSES}. */
    static KnownProperties ofHoplock() {
        List<String> names = new ArrayList<>();
        for (Class<?> type : CLASSES) {
            collect(type, prefixOf(type), names);
        }
        names.sort(Comparator.naturalOrder());
        return new KnownProperties(names);
    }

    /** The prefix {@code type} binds at, as its {@code @ConfigurationProperties} declares it. */
    static String prefixOf(Class<?> type) {
        String prefix = MergedAnnotations.from(type).get(ConfigurationProperties.class)
                .getValue(MergedAnnotation.VALUE, String.class).orElse("");
        if (prefix.isEmpty()) {
            throw new IllegalStateException(type.getName() + " declares no @ConfigurationProperties prefix");
        }
        return prefix;
    }

    /** The known names, canonical form, sorted. */
    List<String> names() {
        return names;
    }

    /**
     * The known property that {@code elements} (a key's elements in Boot's uniform form, {@code hoplock} first) binds
     * to, if any.
     */
    Optional<String> matchElements(List<String> elements) {
        for (int i = 0; i < uniform.size(); i++) {
            List<String> known = uniform.get(i);
            if (known.size() == elements.size() && matches(known, elements)) {
                return Optional.of(names.get(i));
            }
        }
        return Optional.empty();
    }

    /** The known property that environment variable {@code variable} binds to, if any. */
    Optional<String> matchVariable(String variable) {
        String squashedName = squash(variable);
        for (int i = 0; i < squashed.size(); i++) {
            // A bare map entry (hoplock.elections.*) would match any variable under it, misspellings included.
            if (!names.get(i).endsWith(".*") && squashed.get(i).matcher(squashedName).matches()) {
                return Optional.of(names.get(i));
            }
        }
        return Optional.empty();
    }

    /**
     * The known name closest to {@code written} (lowercase, dot-separated) by edit distance; a {@code *} takes the
     * election name written, so that {@code hoplock.elections.jobs.tll} suggests {@code hoplock.elections.jobs.ttl}.
     */
    @Nullable String closest(String written) {
        String[] parts = written.split("\\.");
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String name : names) {
            String concrete = name.startsWith("hoplock.elections.*.") && parts.length > 3
                    && parts[1].equals("elections") ? name.replace("*", parts[2]) : name.replace("*", "NAME");
            int distance = distance(written, concrete);
            if (distance < bestDistance) {
                bestDistance = distance;
                best = concrete;
            }
        }
        return best;
    }

    private static boolean matches(List<String> known, List<String> elements) {
        for (int i = 0; i < known.size(); i++) {
            if (!known.get(i).equals("*") && !known.get(i).equals(elements.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static String uniformElement(String element) {
        return element.equals("*") ? "*" : NOT_ALPHANUMERIC.matcher(element.toLowerCase(Locale.ROOT)).replaceAll("");
    }

    private static String squash(String variable) {
        return NOT_ALPHANUMERIC.matcher(variable.toLowerCase(Locale.ROOT)).replaceAll("");
    }

    private static void collect(Class<?> type, String prefix, List<String> names) {
        for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
            if (property.getReadMethod() == null || property.getName().equals("class")) {
                continue;
            }
            String name = prefix + "." + dashed(property.getName());
            Class<?> propertyType = property.getPropertyType();
            if (Map.class.isAssignableFrom(propertyType)) {
                Class<?> values = ResolvableType.forMethodReturnType(property.getReadMethod()).asMap().resolveGeneric(1);
                names.add(name + ".*"); // an entry with no settings, as YAML writes 'jobs: {}'
                collect(Objects.requireNonNull(values, "a map property of ours names its value type"), name + ".*", names);
            } else if (propertyType.getDeclaringClass() != null && CLASSES.contains(propertyType.getDeclaringClass())
                    && !propertyType.isEnum()) {
                collect(propertyType, name, names); // a nested group, such as hoplock.leader-only
            } else {
                names.add(name);
            }
        }
    }

    private static String dashed(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
