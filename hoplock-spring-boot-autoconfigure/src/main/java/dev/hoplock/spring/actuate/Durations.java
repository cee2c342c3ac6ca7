package dev.hoplock.spring.actuate;

import java.time.Duration;

/** Durations as people read them in health and endpoint output: {@code 1.5s}, {@code 250ms}. */
final class Durations {

    private Durations() {
    }

    static String format(Duration duration) {
        long millis = duration.toMillis();
        if (Math.abs(millis) < 1000) {
            return millis + "ms";
        }
        return String.format(java.util.Locale.ROOT, "%.3fs", millis / 1000.0).replaceAll("\\.?0+s$", "s");
    }
}
