package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.spring.HoplockConfigurationException;

import java.time.Duration;

/**
 * Reports the core's {@link InvalidSettingException} as a {@link HoplockConfigurationException} naming the
 * {@code hoplock.*} property at fault. The property comes from the exception's {@link InvalidSettingException#setting()
 * setting} through the election's setting-to-property map ({@link ElectionDefinition#propertyOf(String)}); the value
 * and the limit come from its fields, shown as Boot writes durations ({@code 10s}, {@code 500ms}). The core's message
 * is never searched or rewritten: when the exception carries no value, its message is quoted as it is.
 */
public final class InvalidSettings {

    private InvalidSettings() {
    }

    static HoplockConfigurationException translate(ElectionDefinition election, InvalidSettingException e) {
        String property = election.propertyOf(e.setting());
        String name = property.split(" ")[0];
        String problem = e.rejectedValue() == null ? e.getMessage()
                : name + " (" + shown(e.rejectedValue()) + ") " + e.reason()
                        + (e.limit() == null ? "" : " (limit: " + shown(e.limit()) + ")");
        String description = "Invalid hoplock setting " + property + " (election '" + election.name() + "'): "
                + problem + ".";
        return new HoplockConfigurationException(name, description, action(e.setting(), name, election), e);
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

    /**
     * A value as a property would be written: durations in Boot's style ({@link HumanDurations}). For the stores'
     * own reports of a refused setting too.
     */
    public static String shown(Object value) {
        return value instanceof Duration duration ? HumanDurations.format(duration) : String.valueOf(value);
    }
}
