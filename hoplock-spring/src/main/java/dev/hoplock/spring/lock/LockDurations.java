package dev.hoplock.spring.lock;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the durations of {@code @WithLock}: {@code 500ms}, {@code 30s}, {@code 10m}, {@code 2h}, {@code 1d} (a whole
 * number and a unit), a bare number of milliseconds as ShedLock's string form reads it, or ISO-8601 ({@code PT10M}).
 */
final class LockDurations {

    private static final Pattern SIMPLE = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)?");

    private LockDurations() {
    }

    /**
     * @throws IllegalArgumentException naming the text and the accepted forms
     */
    static Duration parse(String text) {
        String trimmed = text.trim();
        if (trimmed.toUpperCase(Locale.ROOT).startsWith("P") || trimmed.toUpperCase(Locale.ROOT).startsWith("-P")) {
            try {
                return Duration.parse(trimmed);
            } catch (DateTimeParseException e) {
                throw invalid(text);
            }
        }
        Matcher simple = SIMPLE.matcher(trimmed.toLowerCase(Locale.ROOT));
        if (!simple.matches()) {
            throw invalid(text);
        }
        long amount;
        try {
            amount = Long.parseLong(simple.group(1));
        } catch (NumberFormatException e) {
            throw invalid(text);
        }
        String unit = simple.group(2) == null ? "ms" : simple.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("'" + text + "' is not a duration; write a whole number with a unit (500ms,"
                + " 30s, 10m, 2h, 1d) or ISO-8601 (PT10M)");
    }
}
