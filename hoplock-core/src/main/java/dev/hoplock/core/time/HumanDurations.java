package dev.hoplock.core.time;

import java.time.Duration;
import java.util.Locale;

/**
 * Durations as people read them, used in every log line, problem message, health detail and endpoint answer of
 * hoplock: {@code 250ms}, {@code 1.5s}, {@code 30s}, {@code 2m30s}, {@code 1h5m}. Never ISO-8601 ({@code PT0.5S}).
 *
 * <p>Guarantees: below one second the value is whole milliseconds; from one second to one minute it is seconds with
 * at most three decimals and no trailing zeros; above one minute it is whole hours, minutes and seconds (sub-second
 * parts dropped). Negative durations keep their sign.
 */
public final class HumanDurations {

    private HumanDurations() {
    }

    /** Formats {@code duration} for people; see the class comment for the forms. */
    public static String format(Duration duration) {
        if (duration.isNegative()) {
            return "-" + format(duration.negated());
        }
        if (duration.getSeconds() >= 60) {
            return hoursMinutesSeconds(duration.getSeconds());
        }
        long millis = duration.toMillis();
        if (millis < 1000) {
            return millis + "ms";
        }
        return String.format(Locale.ROOT, "%.3f", millis / 1000.0).replaceAll("\\.?0+$", "") + "s";
    }

    private static String hoursMinutesSeconds(long seconds) {
        long hours = seconds / 3600;
        long minutes = (seconds % 3600) / 60;
        long rest = seconds % 60;
        StringBuilder text = new StringBuilder();
        if (hours > 0) {
            text.append(hours).append('h');
        }
        if (minutes > 0) {
            text.append(minutes).append('m');
        }
        if (rest > 0 || text.length() == 0) {
            text.append(rest).append('s');
        }
        return text.toString();
    }
}
