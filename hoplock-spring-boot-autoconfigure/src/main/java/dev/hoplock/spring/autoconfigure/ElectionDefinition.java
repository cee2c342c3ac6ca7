package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.election.Elector;
import java.util.Map;

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
        LeaseTimingProperties.ifSet(settings.getOwner(), builder::owner);
        settings.applyTimingTo(builder::ttl, builder::renewInterval, builder::pollInterval, builder::requestTimeout,
                builder::safetyMargin, builder::releaseTimeout);
        LeaseTimingProperties.ifSet(settings.getReleaseByDelete(), builder::releaseByDelete);
        return builder;
    }

    /** The property behind builder setting {@code setting}, or a description of the election when unknown. */
    String propertyOf(String setting) {
        return properties.getOrDefault(setting, ElectionDefinitions.prefixOf(name).replaceAll("\\.$", ""));
    }
}
