package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.spring.HoplockConfigurationException;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Resolves {@code hoplock.*} into the list of elections: one named {@code default} (lease key {@code hoplock.key})
 * when no {@code hoplock.elections.*} is set, otherwise one per entry (lease key: its {@code key}, else its name),
 * each inheriting every unset setting from {@code hoplock.*}.
 *
 * <p>Guarantees: every election's lease key is unique (two elections of one process on one key would share an owner
 * and both lead); a duplicate fails with the properties involved.
 */
final class ElectionDefinitions {

    private static final Pattern PLAIN_NAME = Pattern.compile("[a-z0-9-]+");

    /**
     * The shortest TTL accepted. Below it a lease expires before a store request (tens to hundreds of milliseconds
     * on S3) has returned, so the leader changes at almost every renewal; a value such as {@code 6} read as
     * milliseconds would be the usual cause.
     */
    static final Duration MINIMUM_TTL = Duration.ofSeconds(1);

    private ElectionDefinitions() {
    }

    /** The elections, in configuration order. {@code owner} is used where no owner property is set. */
    static List<ElectionDefinition> resolve(HoplockProperties properties, String generatedOwner) {
        List<ElectionDefinition> result = new ArrayList<>();
        if (properties.getElections().isEmpty()) {
            result.add(define(HoplockProperties.DEFAULT_ELECTION, new ElectionProperties(), properties,
                    generatedOwner, true));
        } else {
            properties.getElections().forEach((name, election) -> result.add(define(name,
                    election == null ? new ElectionProperties() : election, properties, generatedOwner, false)));
        }
        checkUniqueKeys(result);
        return result;
    }

    /**
     * The election used when none is named: {@code default} if configured, else the only one, else null.
     */
    static @Nullable String defaultName(List<ElectionDefinition> elections) {
        for (ElectionDefinition election : elections) {
            if (election.name().equals(HoplockProperties.DEFAULT_ELECTION)) {
                return election.name();
            }
        }
        return elections.size() == 1 ? elections.get(0).name() : null;
    }

    /** {@code hoplock.elections.NAME.} (or the bracket form for names that need it). */
    static String prefixOf(String name) {
        return PLAIN_NAME.matcher(name).matches() ? "hoplock.elections." + name + "."
                : "hoplock.elections[" + name + "].";
    }

    private static ElectionDefinition define(String name, ElectionProperties own, HoplockProperties global,
            String generatedOwner, boolean implicit) {
        ElectionProperties settings = implicit ? global.over(new ElectionProperties()) : own.over(global);
        if (!implicit && own.getKey() == null) {
            settings.setKey(name);
        }
        if (settings.getOwner() == null) {
            settings.setOwner(generatedOwner);
        }
        String prefix = implicit ? "hoplock." : prefixOf(name);
        Map<String, String> sources = new HashMap<>();
        sources.put("key", implicit || own.getKey() != null ? prefix + "key"
                : prefix + "key (defaults to the election name '" + name + "')");
        source(sources, "owner", own.getOwner(), prefix, "owner");
        source(sources, "ttl", own.getTtl(), prefix, "ttl");
        source(sources, "renewInterval", own.getRenew(), prefix, "renew");
        source(sources, "pollInterval", own.getPoll(), prefix, "poll");
        source(sources, "requestTimeout", own.getRequestTimeout(), prefix, "request-timeout");
        source(sources, "safetyMargin", own.getSafetyMargin(), prefix, "safety-margin");
        source(sources, "releaseTimeout", own.getReleaseTimeout(), prefix, "release-timeout");
        source(sources, "releaseByDelete", own.getReleaseByDelete(), prefix, "release-by-delete");
        checkMinimumTtl(settings.getTtl(), Objects.requireNonNull(sources.get("ttl"), "recorded above"), name);
        String key = Objects.requireNonNull(settings.getKey(), "an election's key defaults to its name, the implicit"
                + " election's to '" + HoplockProperties.DEFAULT_ELECTION + "'");
        return new ElectionDefinition(name, key, settings, Map.copyOf(sources));
    }

    /**
     * Records which property supplies builder setting {@code setting}: the election's own when it sets one, else the
     * inherited {@code hoplock.*} one of the same name.
     */
    private static void source(Map<String, String> sources, String setting, @Nullable Object own, String prefix,
            String suffix) {
        sources.put(setting, (own != null ? prefix : "hoplock.") + suffix);
    }

    private static void checkMinimumTtl(@Nullable Duration ttl, String property, String election) {
        if (ttl != null && ttl.compareTo(MINIMUM_TTL) < 0) {
            throw new HoplockConfigurationException(property, "Invalid hoplock setting " + property + " (election '"
                    + election + "'): the TTL is " + HumanDurations.format(ttl) + ", below the minimum of "
                    + HumanDurations.format(MINIMUM_TTL) + ". A lease that short expires before a store request"
                    + " returns, so the leader would change at almost every renewal.",
                    "Set " + property + " to at least " + HumanDurations.format(MINIMUM_TTL) + ", for example 30s"
                            + " (the default). A value without a unit is in seconds: " + property + "=30 means 30s.");
        }
    }

    private static void checkUniqueKeys(List<ElectionDefinition> elections) {
        Map<String, ElectionDefinition> byKey = new LinkedHashMap<>();
        for (ElectionDefinition election : elections) {
            ElectionDefinition other = byKey.putIfAbsent(election.key(), election);
            if (other != null) {
                throw new HoplockConfigurationException(election.propertyOf("key"),
                        "Elections '" + other.name() + "' and '" + election.name() + "' both use the lease key '"
                                + election.key() + "' (" + other.propertyOf("key") + ", " + election.propertyOf("key")
                                + "). One process would then hold one lease for both, with one owner id.",
                        "Give each election its own key: set " + election.propertyOf("key").split(" ")[0]
                                + " to a different value, or remove one of the elections.");
            }
        }
    }
}
