package dev.hoplock.bench.report;

import dev.hoplock.bench.common.Results;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

import static dev.hoplock.bench.report.Fmt.d;
import static dev.hoplock.bench.report.Fmt.f0;
import static dev.hoplock.bench.report.Fmt.f1;
import static dev.hoplock.bench.report.Fmt.fx;
import static dev.hoplock.bench.report.Fmt.kinds;
import static dev.hoplock.bench.report.Fmt.m;
import static dev.hoplock.bench.report.Fmt.ratio;
import static dev.hoplock.bench.report.Fmt.slices;
import static dev.hoplock.bench.report.Fmt.v;

/**
 * What the request sections (3, 5, 6, 9), the gate section and the summary share: the rows that count executions and
 * store requests of a hoplock / ShedLock pair with their ratios, each instance's requests per hour, and hoplock's
 * added latency per scheduled execution judged against the harness's resolution. A missing summary shows as "-".
 */
final class RequestTables {

    private final MarkdownPage page;
    private final ResultFiles results;

    RequestTables(MarkdownPage page, ResultFiles results) {
        this.page = page;
        this.results = results;
    }

    /** The rows of a requests table that count executions and requests, with the ShedLock / hoplock ratios. */
    void countRows(@Nullable Properties hoplock, @Nullable Properties shedlock) {
        Properties any = hoplock != null ? hoplock : shedlock;
        rowR("executions in the window (periods: " + m(any, "periods") + ")", hoplock, shedlock, "executions", 0);
        rowR("executions closer than 50 ms to the previous one (a double run, or a late tick of one instance followed by its next on time: compare the executions with the periods)", hoplock, shedlock,
                "executions_closer_than_50ms", 0);
        rowR("calls skipped on non-leaders / not locked", hoplock, shedlock, "skipped_calls", 0);
        rowR("store requests in the window", hoplock, shedlock, "requests", 0);
        line("| requests by kind | " + kinds(hoplock) + " | " + kinds(shedlock) + " | |");
        line("| **requests per execution** (whole window) | " + v(hoplock, "requests_per_execution", 3) + " | "
                + v(shedlock, "requests_per_execution", 2) + " | " + ratio(shedlock, hoplock, "requests_per_execution")
                + " |");
        line("| requests per execution, median (min to max) over " + m(any, "slices") + " slices of the window | "
                + slices(hoplock) + " | " + slices(shedlock) + " | |");
        line("| **requests per hour**, 3 instances (extrapolated from the window) | " + v(hoplock, "requests_per_hour", 0)
                + " | " + v(shedlock, "requests_per_hour", 0) + " | " + ratio(shedlock, hoplock, "requests_per_hour")
                + " |");
    }

    private void rowR(String label, @Nullable Properties hoplock, @Nullable Properties shedlock, String key,
            int decimals) {
        line("| " + label + " | " + v(hoplock, key, decimals) + " | " + v(shedlock, key, decimals) + " | |");
    }

    /**
     * hoplock's added latency per scheduled execution as text, and ShedLock's ratio to it. When the median difference
     * is smaller than the spread of the control job's own run time (its interquartile range), it is below what this
     * harness can resolve: shown as "< resolution", and the ratio as a lower bound.
     */
    static String[] scheduledLatency(Properties hoplock, @Nullable Properties shedlock) {
        double added = d(hoplock, "added_latency_per_execution_us");
        double resolution = d(hoplock, "control_overhead_us_p75") - d(hoplock, "control_overhead_us_p25");
        double shed = shedlock == null ? Double.NaN : d(shedlock, "added_latency_per_execution_us");
        if (added < resolution) {
            return new String[] {"< " + f0(resolution) + " us (below this harness's resolution: the median difference"
                    + " is " + f1(added) + " us, the control job's own run time spreads over " + f0(resolution)
                    + " us between its quartiles; JMH above gives the precise cost)", "> " + fx(shed / resolution)};
        }
        return new String[] {f1(added) + " us", fx(shed / added)};
    }

    /** "i1 leader 360, i2 follower 1,800, ..." from a requests CSV. */
    String perInstance(String file, @Nullable Properties summary) {
        Path path = results.resolve(file);
        if (summary == null || !Files.exists(path)) {
            return "-";
        }
        double window = d(summary, "window_s");
        List<String> parts = new ArrayList<>();
        for (Map<String, String> row : Results.readCsv(path)) {
            String role = Objects.requireNonNull(row.get("role"), "every row has a role").equals("lock per run") ? ""
                    : " " + row.get("role");
            parts.add(row.get("instance") + role + " " + f0(Double.parseDouble(row.get("requests")) / window * 3600));
        }
        return String.join(", ", parts);
    }

    private void line(String text) {
        page.line(text);
    }
}
