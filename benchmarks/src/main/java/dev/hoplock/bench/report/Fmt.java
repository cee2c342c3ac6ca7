package dev.hoplock.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * How the report shows numbers and summary values: fixed decimals in {@link Locale#ROOT} with thousands separators
 * where the report uses them, ratios as "12.3x", and "-" for a value a summary does not have (a {@code null} summary
 * is one whose stage was not measured). Pure functions of their arguments: the same results always give the same
 * text.
 */
final class Fmt {

    private Fmt() {
    }

    static double orZero(@Nullable Double value) {
        return value == null ? 0 : value;
    }

    static String verdict(double measured, double bound, String unit) {
        return measured <= bound ? "met (" + f1(bound - measured) + unit + " to spare)"
                : "**missed by " + f1(measured - bound) + unit + "**";
    }

    static String kinds(@Nullable Properties p) {
        if (p == null) {
            return "-";
        }
        List<String> parts = new ArrayList<>();
        for (String name : p.stringPropertyNames().stream().sorted().toList()) {
            if (name.startsWith("requests.")) {
                parts.add(name.substring("requests.".length()) + " " + p.getProperty(name));
            }
        }
        return String.join(", ", parts);
    }

    static String slices(@Nullable Properties p) {
        if (p == null) {
            return "-";
        }
        return f3(d(p, "requests_per_execution_slice_p50")) + " (" + f3(d(p, "requests_per_execution_slice_min"))
                + " to " + f3(d(p, "requests_per_execution_slice_max")) + ")";
    }

    static String spread(@Nullable Properties p, String key) {
        if (p == null || p.getProperty(key + "_p50") == null || "NaN".equals(p.getProperty(key + "_p50"))) {
            return "-";
        }
        return f1(d(p, key + "_p25")) + " / " + f1(d(p, key + "_p50")) + " / " + f1(d(p, key + "_p75")) + " / "
                + f1(d(p, key + "_p99")) + " us (n=" + p.getProperty(key + "_n") + ")";
    }

    static String range(Properties p, String key) {
        return f0(d(p, key + "_p50_ms")) + " ms (" + f0(d(p, key + "_min_ms")) + " to " + f0(d(p, key + "_max_ms"))
                + ")";
    }

    static String v(@Nullable Properties p, String key, int decimals) {
        if (p == null || p.getProperty(key) == null) {
            return "-";
        }
        double value = d(p, key);
        return String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    static String ratio(@Nullable Properties numerator, @Nullable Properties denominator, String key) {
        if (numerator == null || denominator == null) {
            return "-";
        }
        return fx(d(numerator, key) / d(denominator, key));
    }

    static String m(@Nullable Properties p, String key) {
        return p == null ? "-" : p.getProperty(key, "-");
    }

    static double d(Properties p, String key) {
        String value = p.getProperty(key);
        return value == null ? Double.NaN : Double.parseDouble(value);
    }

    static String f0(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    static String signed(double v) {
        return String.format(Locale.ROOT, "%+,.0f", v);
    }

    static String f1(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    static String f2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String f3(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** A ratio as "123x" (no decimals from 100 on). */
    static String fx(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "-";
        }
        return v >= 100 ? String.format(Locale.ROOT, "%,.0fx", v) : String.format(Locale.ROOT, "%.1fx", v);
    }
}
