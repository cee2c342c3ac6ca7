package dev.hoplock.bench.common;

import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;

/**
 * Order statistics of a sample: median, percentiles (linear interpolation between closest ranks, the R-7 / Excel
 * definition), min, max and the interquartile range. Immutable; the values are sorted once.
 */
public final class Stats {

    private final double[] sorted;

    private Stats(double[] values) {
        this.sorted = values.clone();
        Arrays.sort(sorted);
    }

    public static Stats of(double... values) {
        return new Stats(values);
    }

    public static Stats of(Collection<? extends Number> values) {
        return new Stats(values.stream().mapToDouble(Number::doubleValue).toArray());
    }

    public int count() {
        return sorted.length;
    }

    public boolean isEmpty() {
        return sorted.length == 0;
    }

    /** The {@code p}-th percentile, {@code p} in [0, 100]; NaN for an empty sample. */
    public double percentile(double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        if (sorted.length == 1) {
            return sorted[0];
        }
        double rank = p / 100.0 * (sorted.length - 1);
        int low = (int) Math.floor(rank);
        int high = Math.min(sorted.length - 1, low + 1);
        double fraction = rank - low;
        return sorted[low] + fraction * (sorted[high] - sorted[low]);
    }

    public double median() {
        return percentile(50);
    }

    public double p99() {
        return percentile(99);
    }

    public double min() {
        return sorted.length == 0 ? Double.NaN : sorted[0];
    }

    public double max() {
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1];
    }

    public double mean() {
        return sorted.length == 0 ? Double.NaN : Arrays.stream(sorted).sum() / sorted.length;
    }

    public double sum() {
        return Arrays.stream(sorted).sum();
    }

    public double[] values() {
        return sorted.clone();
    }

    /** "median (min to max, n=N)" with the given number format, for example "%.0f". */
    public String describe(String format) {
        if (isEmpty()) {
            return "no data";
        }
        return String.format(Locale.ROOT, format + " (min " + format + ", max " + format + ", n=%d)", median(), min(),
                max(), count());
    }
}
