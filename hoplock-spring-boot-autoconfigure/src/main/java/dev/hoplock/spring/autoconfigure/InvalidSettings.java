package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.spring.HoplockConfigurationException;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Translates the core's {@link InvalidSettingException} (which names elector builder settings such as
 * {@code renewInterval}) into a {@link HoplockConfigurationException} that names the {@code hoplock.*} property and
 * speaks in property names and human durations ({@code 10s}, {@code 500ms}, not {@code PT10S}).
 */
final class InvalidSettings {

    private static final Map<String, String> WORDS = Map.of(
            "renewInterval", "renew",
            "pollInterval", "poll",
            "requestTimeout", "request-timeout",
            "safetyMargin", "safety-margin",
            "releaseTimeout", "release-timeout",
            "releaseByDelete", "release-by-delete");

    private static final Pattern ISO_DURATION = Pattern.compile("PT[0-9HMS.]+");

    private InvalidSettings() {
    }

    static HoplockConfigurationException translate(ElectionDefinition election, InvalidSettingException e) {
        String property = election.propertyOf(e.setting());
        String description = "Invalid hoplock setting " + property + " (election '" + election.name() + "'): "
                + inPropertyWords(e.getMessage()) + ".";
        return new HoplockConfigurationException(property.split(" ")[0], description,
                action(e.setting(), property.split(" ")[0], election), e);
    }

    private static String action(String setting, String property, ElectionDefinition election) {
        String ttlProperty = election.propertyOf("ttl");
        return switch (setting) {
            case "ttl" -> "Set " + property + " to a positive duration, for example 30s.";
            case "renewInterval" -> "Set " + property + " below the TTL minus the safety margin (ttl/3 or less), or"
                    + " leave it unset to use ttl/3; or raise " + ttlProperty + ".";
            case "pollInterval" -> "Set " + property + " to a positive duration (ttl/15 is the default), or leave it"
                    + " unset.";
            case "requestTimeout" -> "Set " + property + " to a positive duration, or leave it unset to use the renew"
                    + " interval.";
            case "safetyMargin" -> "Set " + property + " to at least 0 and less than the TTL (" + ttlProperty
                    + "), or leave it unset to use ttl/10.";
            case "key" -> "Set " + property + " to segments of letters, digits, '.', '_' or '-' separated by single"
                    + " '/', at most 512 characters.";
            case "owner" -> "Set " + property + " to 1 to 256 printable characters, unique per process, or leave it"
                    + " unset to get host:pid:random.";
            default -> "Fix " + property + ".";
        };
    }

    /** Replaces builder setting names by property names, and ISO-8601 durations by Boot's style. */
    static String inPropertyWords(String message) {
        String result = message;
        for (Map.Entry<String, String> word : WORDS.entrySet()) {
            result = result.replace(word.getKey(), word.getValue());
        }
        Matcher matcher = ISO_DURATION.matcher(result);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            matcher.appendReplacement(out, Matcher.quoteReplacement(humanForm(matcher.group())));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    /** {@code PT10S} as {@code 10s}, {@code PT0.5S} as {@code 500ms} ({@link HumanDurations}); else unchanged. */
    static String humanForm(String iso) {
        try {
            return HumanDurations.format(Duration.parse(iso));
        } catch (DateTimeParseException | ArithmeticException e) {
            return iso;
        }
    }
}
