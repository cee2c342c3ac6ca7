package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.spring.HoplockConfigurationException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
            result.add(define(HoplockProperties.DEFAULT_ELECTION, new HoplockProperties.Election(), properties,
                    generatedOwner, true));
        } else {
            properties.getElections().forEach((name, election) -> result.add(define(name,
                    election == null ? new HoplockProperties.Election() : election, properties, generatedOwner, false)));
        }
        checkUniqueKeys(result);
        return result;
    }

    /**
     * The election used when none is named: {@code default} if configured, else the only one, else null.
     */
    static String defaultName(List<ElectionDefinition> elections) {
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

    private static ElectionDefinition define(String name, HoplockProperties.Election own, HoplockProperties global,
            String generatedOwner, boolean implicit) {
        Map<String, String> sources = new HashMap<>();
        String prefix = implicit ? "hoplock." : prefixOf(name);

        String key;
        if (implicit) {
            key = global.getKey();
            sources.put("key", "hoplock.key");
        } else if (own.getKey() != null) {
            key = own.getKey();
            sources.put("key", prefix + "key");
        } else {
            key = name;
            sources.put("key", prefix + "key (defaults to the election name '" + name + "')");
        }
        String owner = pick(own.getOwner(), global.getOwner(), generatedOwner, "owner", prefix + "owner",
                "hoplock.owner", sources);
        Duration ttl = pick(own.getTtl(), global.getTtl(), null, "ttl", prefix + "ttl", "hoplock.ttl", sources);
        checkMinimumTtl(ttl, sources.get("ttl"), name);
        Duration renew = pick(own.getRenew(), global.getRenew(), null, "renewInterval", prefix + "renew",
                "hoplock.renew", sources);
        Duration poll = pick(own.getPoll(), global.getPoll(), null, "pollInterval", prefix + "poll",
                "hoplock.poll", sources);
        Duration requestTimeout = pick(own.getRequestTimeout(), global.getRequestTimeout(), null, "requestTimeout",
                prefix + "request-timeout", "hoplock.request-timeout", sources);
        Duration safetyMargin = pick(own.getSafetyMargin(), global.getSafetyMargin(), null, "safetyMargin",
                prefix + "safety-margin", "hoplock.safety-margin", sources);
        Duration releaseTimeout = pick(own.getReleaseTimeout(), global.getReleaseTimeout(), null, "releaseTimeout",
                prefix + "release-timeout", "hoplock.release-timeout", sources);
        boolean releaseByDelete = own.getReleaseByDelete() != null ? own.getReleaseByDelete()
                : global.isReleaseByDelete();
        return new ElectionDefinition(name, key, owner, ttl, renew, poll, requestTimeout, safetyMargin, releaseTimeout,
                releaseByDelete, Map.copyOf(sources));
    }

    private static void checkMinimumTtl(Duration ttl, String property, String election) {
        if (ttl != null && ttl.compareTo(MINIMUM_TTL) < 0) {
            throw new HoplockConfigurationException(property, "Invalid hoplock setting " + property + " (election '"
                    + election + "'): the TTL is " + HumanDurations.format(ttl) + ", below the minimum of "
                    + HumanDurations.format(MINIMUM_TTL) + ". A lease that short expires before a store request"
                    + " returns, so the leader would change at almost every renewal.",
                    "Set " + property + " to at least " + HumanDurations.format(MINIMUM_TTL) + ", for example 30s"
                            + " (the default). A value without a unit is in seconds: " + property + "=30 means 30s.");
        }
    }

    private static <T> T pick(T own, T global, T fallback, String setting, String ownProperty, String globalProperty,
            Map<String, String> sources) {
        if (own != null) {
            sources.put(setting, ownProperty);
            return own;
        }
        sources.put(setting, globalProperty);
        return global != null ? global : fallback;
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
