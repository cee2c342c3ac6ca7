package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.spring.HoplockConfigurationException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Looks at every {@code hoplock.*} key the application's {@link Environment} holds, before any bean is created:
 *
 * <ul>
 *   <li>a key that is no hoplock property (a misspelling such as {@code hoplock.tll}, which Boot would silently
 *       ignore) is reported with the closest known property and where it was set; {@code hoplock.unknown-properties}
 *       says whether that is a warning (default), a failed start, or nothing;</li>
 *   <li>a known setting that has no effect with the configuration chosen (for example {@code hoplock.s3.bucket} with
 *       {@code hoplock.backend=filesystem}, or {@code hoplock.key} next to {@code hoplock.elections.*}) is logged as a
 *       warning. It never fails the start: a profile that switches the store (tests on {@code memory}) commonly
 *       leaves the others' settings in place.</li>
 * </ul>
 * Keys are matched in all of Boot's relaxed forms ({@link KnownProperties}), in every enumerable property source
 * (files, command line, system properties, environment variables). Values are never logged: a key's name and origin
 * only, so no secret leaks.
 */
final class HoplockPropertyCheck implements BeanFactoryPostProcessor, Ordered {

    private static final Logger log = LoggerFactory.getLogger(HoplockPropertyCheck.class);

    private final Environment environment;
    private final KnownProperties known = KnownProperties.ofHoplock();

    HoplockPropertyCheck(Environment environment) {
        this.environment = environment;
    }

    /** A {@code hoplock.*} key as found in one property source. */
    record Key(String written, String canonical, Optional<String> property, String origin) {
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        List<Key> keys = keys();
        reportUnknown(keys.stream().filter(key -> key.property().isEmpty()).toList());
        reportIgnored(keys.stream().filter(key -> key.property().isPresent()).toList(),
                applicationBackendBean(beanFactory));
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    /** Every {@code hoplock.*} key in every enumerable property source, with the property it binds to if any. */
    List<Key> keys() {
        List<Key> keys = new ArrayList<>();
        if (!(environment instanceof ConfigurableEnvironment configurable)) {
            return keys;
        }
        for (PropertySource<?> source : configurable.getPropertySources()) {
            if (!(source instanceof EnumerablePropertySource<?> enumerable)) {
                continue;
            }
            boolean variables = source instanceof SystemEnvironmentPropertySource;
            for (String name : enumerable.getPropertyNames()) {
                if (variables) {
                    if (name.toUpperCase(Locale.ROOT).startsWith("HOPLOCK_")) {
                        keys.add(new Key(name, name.toLowerCase(Locale.ROOT).replace('_', '.'),
                                known.matchVariable(name), "environment variable " + name));
                    }
                    continue;
                }
                ConfigurationPropertyName parsed = ConfigurationPropertyName.adapt(name, '.');
                if (parsed.isEmpty() || !parsed.getElement(0, ConfigurationPropertyName.Form.UNIFORM)
                        .equals("hoplock")) {
                    continue;
                }
                List<String> elements = new ArrayList<>();
                for (int i = 0; i < parsed.getNumberOfElements(); i++) {
                    elements.add(parsed.getElement(i, ConfigurationPropertyName.Form.UNIFORM));
                }
                keys.add(new Key(name, name.toLowerCase(Locale.ROOT), known.matchElements(elements),
                        origin(source, name)));
            }
        }
        return keys;
    }

    private void reportUnknown(List<Key> unknown) {
        if (unknown.isEmpty()) {
            return;
        }
        HoplockProperties.UnknownProperties mode = Binder.get(environment)
                .bind("hoplock.unknown-properties", HoplockProperties.UnknownProperties.class)
                .orElse(HoplockProperties.UnknownProperties.WARN);
        if (mode == HoplockProperties.UnknownProperties.IGNORE) {
            return;
        }
        String list = unknown.stream().map(key -> key.written() + " (did you mean "
                        + known.closest(key.canonical()) + "?), set in " + key.origin())
                .collect(Collectors.joining("; "));
        String description = (unknown.size() == 1 ? "1 setting is" : unknown.size() + " settings are")
                + " not a hoplock property, so nothing reads " + (unknown.size() == 1 ? "it" : "them") + ": " + list
                + ".";
        if (mode == HoplockProperties.UnknownProperties.FAIL) {
            throw new HoplockConfigurationException(unknown.get(0).written(), description,
                    "Correct the name (the closest hoplock property is given) or remove the setting; or set"
                            + " hoplock.unknown-properties=warn to start anyway and only log it.");
        }
        log.warn("hoplock: {} Correct the name or remove it (hoplock.unknown-properties=fail refuses to start"
                + " instead; =ignore says nothing).", description);
    }

    private void reportIgnored(List<Key> set, Optional<String> applicationBackend) {
        List<String> warnings = new ArrayList<>();
        String storeReason = applicationBackend.map(bean -> "the application defines its own Backend bean '" + bean
                + "'").orElse(null);
        Optional<BackendType> chosen = OnHoplockBackendCondition.chosen(environment);
        for (Key key : set) {
            String property = key.property().orElseThrow();
            String reason = ignoredBecause(property, chosen, storeReason, set);
            if (reason != null) {
                warnings.add(key.written() + " (set in " + key.origin() + ") has no effect: " + reason);
            }
        }
        warnings.stream().distinct().forEach(warning -> log.warn("hoplock: {}", warning));
    }

    private static @Nullable String ignoredBecause(String property, Optional<BackendType> chosen,
            @Nullable String storeReason, List<Key> set) {
        BackendType store = storeOf(property);
        boolean storeSetting = store != null || property.equals("hoplock.backend") || property.equals("hoplock.probe");
        if (storeReason != null && storeSetting) {
            return storeReason;
        }
        if (chosen.isPresent()) {
            String chosenStore = "the store is " + chosen.get().value();
            if (store != null && chosen.get() != store) {
                return chosenStore + ", so " + store.properties() + ".* is not read"
                        + (store == BackendType.JDBC ? " (the fence's settings are hoplock.fence.*)" : "");
            }
            if (property.equals("hoplock.probe") && chosen.get() != BackendType.S3) {
                return chosenStore + "; the conditional-write probe runs on S3 only";
            }
        }
        if (property.equals("hoplock.key") && set.stream().anyMatch(key -> key.property().orElseThrow()
                .startsWith("hoplock.elections."))) {
            return "hoplock.elections.* is configured, so there is no implicit default election; set"
                    + " hoplock.elections.NAME.key instead";
        }
        return null;
    }

    /** The store whose own settings {@code property} is one of ({@link BackendType#properties()}), or null. */
    private static @Nullable BackendType storeOf(String property) {
        for (BackendType store : BackendType.values()) {
            if (store.properties() != null && property.startsWith(store.properties() + ".")) {
                return store;
            }
        }
        return null;
    }

    private static Optional<String> applicationBackendBean(ConfigurableListableBeanFactory beanFactory) {
        return Arrays.stream(beanFactory.getBeanNamesForType(Backend.class, true, false))
                .filter(name -> !name.equals("hoplockBackend"))
                .findFirst();
    }

    private static String origin(PropertySource<?> source, String name) {
        if (source instanceof OriginLookup<?>) {
            @SuppressWarnings("unchecked")
            Origin origin = ((OriginLookup<String>) source).getOrigin(name);
            if (origin != null) {
                return origin + " (" + source.getName() + ")";
            }
        }
        return "property source '" + source.getName() + "'";
    }
}
