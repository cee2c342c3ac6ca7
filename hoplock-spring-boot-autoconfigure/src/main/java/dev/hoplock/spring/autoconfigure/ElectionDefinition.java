package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.Elector;
import org.jspecify.annotations.Nullable;

import java.util.Map;
import java.util.function.Consumer;

/**
 * One election as resolved from {@code hoplock.*}: its own {@link ElectionProperties} merged over the inherited ones,
 * and, for every elector builder setting, the property that supplied it (so that a failed check can name the
 * property).
 *
 * @param name       the election's name
 * @param key        the lease key
 * @param settings   the merged settings; key and owner are set, a null duration keeps the elector's default
 * @param properties builder setting name ({@code ttl}, {@code renewInterval}, ...) to the {@code hoplock.*} property
 *                   that supplies it, or would supply it if it were set
 */
record ElectionDefinition(String name, String key, ElectionProperties settings, Map<String, String> properties) {

    /** Applies these settings to {@code builder}; unset settings keep the builder's defaults. */
    Elector.Builder applyTo(Elector.Builder builder) {
        // Not Boot's PropertyMapper: Boot 3 passes nulls on to the setter, Boot 4 does not.
        ifSet(settings.getOwner(), builder::owner);
        ifSet(settings.getTtl(), builder::ttl);
        ifSet(settings.getRenew(), builder::renewInterval);
        ifSet(settings.getPoll(), builder::pollInterval);
        ifSet(settings.getRequestTimeout(), builder::requestTimeout);
        ifSet(settings.getSafetyMargin(), builder::safetyMargin);
        ifSet(settings.getReleaseTimeout(), builder::releaseTimeout);
        ifSet(settings.getReleaseByDelete(), builder::releaseByDelete);
        return builder;
    }

    private static <T> void ifSet(@Nullable T value, Consumer<T> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }

    /** The property behind builder setting {@code setting}, or a description of the election when unknown. */
    String propertyOf(String setting) {
        return properties.getOrDefault(setting, ElectionDefinitions.prefixOf(name).replaceAll("\\.$", ""));
    }
}
