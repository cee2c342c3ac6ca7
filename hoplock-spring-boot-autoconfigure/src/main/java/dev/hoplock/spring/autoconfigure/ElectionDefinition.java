package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.Elector;

import java.time.Duration;
import java.util.Map;

/**
 * One election as resolved from {@code hoplock.*}: its own settings merged over the inherited ones, and, for every
 * elector builder setting, the property that supplied it (so that a failed check can name the property).
 *
 * <p>A null duration means "the elector's default" (derived from the TTL).
 *
 * @param name       the election's name
 * @param key        the lease key
 * @param owner      the owner id
 * @param properties builder setting name ({@code ttl}, {@code renewInterval}, ...) to the {@code hoplock.*} property
 *                   that supplies it, or would supply it if it were set
 */
record ElectionDefinition(
        String name,
        String key,
        String owner,
        Duration ttl,
        Duration renew,
        Duration poll,
        Duration requestTimeout,
        Duration safetyMargin,
        Duration releaseTimeout,
        boolean releaseByDelete,
        Map<String, String> properties) {

    /** Applies these settings to {@code builder}; unset durations keep the builder's defaults. */
    Elector.Builder applyTo(Elector.Builder builder) {
        builder.owner(owner).ttl(ttl).releaseByDelete(releaseByDelete);
        if (renew != null) {
            builder.renewInterval(renew);
        }
        if (poll != null) {
            builder.pollInterval(poll);
        }
        if (requestTimeout != null) {
            builder.requestTimeout(requestTimeout);
        }
        if (safetyMargin != null) {
            builder.safetyMargin(safetyMargin);
        }
        if (releaseTimeout != null) {
            builder.releaseTimeout(releaseTimeout);
        }
        return builder;
    }

    /** The property behind builder setting {@code setting}, or a description of the election when unknown. */
    String propertyOf(String setting) {
        return properties.getOrDefault(setting, ElectionDefinitions.prefixOf(name).replaceAll("\\.$", ""));
    }
}
