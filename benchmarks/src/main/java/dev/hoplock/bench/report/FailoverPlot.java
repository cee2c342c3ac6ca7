package dev.hoplock.bench.report;

import dev.hoplock.bench.common.Results;
import dev.hoplock.bench.common.Stats;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

import static dev.hoplock.bench.report.Fmt.d;
import static dev.hoplock.bench.report.Fmt.f0;

/**
 * {@code docs/failover.png}: the cumulative distributions of the failover times of section 1 (crash, from the kill
 * and from the last renewal; graceful handover), with the bounds as dashed lines. Graceful handovers beyond the axis
 * are drawn at its edge and named in the panel's note, never dropped.
 */
final class FailoverPlot {

    private final ResultFiles results;
    private final Path docs;

    FailoverPlot(ResultFiles results, Path docs) {
        this.results = results;
        this.docs = docs;
    }

    /** Writes {@code failover.png} into the docs directory from the failover CSV files. */
    void write(Properties failover) throws IOException {
        double ttl = d(failover, "ttl_ms");
        double renew = d(failover, "renew_ms");
        double poll = d(failover, "poll_ms");
        double[] crash = results.column("failover-crash.csv", "kill_to_acquired_ms");
        double[] sinceWrite = results.column("failover-crash.csv", "last_write_to_acquired_ms");
        double[] graceful = results.column("failover-graceful.csv", "stop_to_acquired_ms");
        double[] sinceRelease = results.column("failover-graceful.csv", "released_to_acquired_ms");
        Color blue = new Color(31, 119, 180);
        Color orange = new Color(230, 120, 20);
        Color grey = new Color(90, 90, 90);
        Color red = new Color(200, 30, 30);
        Color green = new Color(40, 150, 60);
        double crashMax = Math.max(ttl + 3 * poll, Stats.of(sinceWrite).max() * 1.05);
        EcdfPlot.Panel crashPanel = new EcdfPlot.Panel(
                "Crash (kill -9), n=" + crash.length + ", TTL " + f0(ttl) + " ms, renew " + f0(renew) + " ms, poll "
                        + f0(poll) + " ms",
                "milliseconds", Math.floor((ttl - renew - poll) / 100) * 100, Math.ceil(crashMax / 100) * 100,
                List.of(new EcdfPlot.Series("kill -> follower Acquired", blue, crash),
                        new EcdfPlot.Series("dead leader's last renewal -> follower Acquired", orange, sinceWrite)),
                List.of(new EcdfPlot.Reference("TTL - renew: earliest possible from the kill", grey, ttl - renew),
                        new EcdfPlot.Reference("TTL: the lease expires (physical bound from the last renewal)", red, ttl),
                        new EcdfPlot.Reference("TTL + poll/4: latest by design when the renewal lands as forecast",
                                green, ttl + poll / 4),
                        new EcdfPlot.Reference("TTL + 2 polls: latest by design when it lands later",
                                new Color(140, 60, 170),
                                ttl + 2 * poll)),
                "");
        // The axis covers the handovers whose release took effect; slower ones are pinned to the right edge.
        List<Map<String, String>> gracefulRows = Results.readCsv(results.resolve("failover-graceful.csv"));
        double[] effective = gracefulRows.stream().filter(r -> !"false".equals(r.get("release_took_effect")))
                .mapToDouble(r -> Double.parseDouble(r.get("stop_to_acquired_ms"))).toArray();
        double gracefulMax = Math.max(2 * poll, Stats.of(effective.length == 0 ? graceful : effective).max() * 1.1);
        List<String> beyond = new ArrayList<>();
        for (double value : graceful) {
            if (value > Math.ceil(gracefulMax / 20) * 20) {
                beyond.add(f0(value));
            }
        }
        String note = beyond.isEmpty() ? "" : beyond.size() + " beyond the axis, drawn at its edge: "
                + String.join(", ", beyond) + " ms (the release did not take effect)";
        EcdfPlot.Panel gracefulPanel = new EcdfPlot.Panel(
                "Graceful stop (SIGTERM, release), n=" + graceful.length,
                "milliseconds", 0, Math.ceil(gracefulMax / 20) * 20,
                List.of(new EcdfPlot.Series("stop signal -> follower Acquired", blue, graceful),
                        new EcdfPlot.Series("release answered -> follower Acquired", orange, sinceRelease)),
                List.of(new EcdfPlot.Reference("poll interval", green, poll)), note);
        EcdfPlot.write(docs.resolve("failover.png"), "hoplock failover over S3 (S3Mock on 127.0.0.1), measured "
                        + results.stages().getProperty("failover.finished", "?"),
                List.of(crashPanel, gracefulPanel), 760, 680);
    }
}
