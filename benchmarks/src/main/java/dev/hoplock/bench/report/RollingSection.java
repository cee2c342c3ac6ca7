package dev.hoplock.bench.report;

import java.util.Properties;
import org.jspecify.annotations.Nullable;

import static dev.hoplock.bench.report.Fmt.d;
import static dev.hoplock.bench.report.Fmt.f0;
import static dev.hoplock.bench.report.Fmt.f1;
import static dev.hoplock.bench.report.Fmt.m;

/**
 * Section 7: rolling restarts of three Spring Boot instances: the time with no leader per handover, and the two
 * counts that must be zero (two leaders, an acquisition before the instance was ready).
 */
final class RollingSection extends Section {

    RollingSection(MarkdownPage page, ResultFiles results) {
        super(page, results);
    }

    void write(@Nullable Properties rolling) {
        line("## 7. Rolling restart: handover gaps of three Spring Boot instances");
        line("");
        command("rolling");
        if (rolling == null) {
            missing("rolling", "the rolling restart");
            return;
        }
        line("`RollingRestartBench`: three whole Spring Boot applications (`RollingChild`, one JVM each, the starter"
                + " with its default `hoplock.campaign-when=ready`, a `@LeaderOnly` job every 20 ms) over one"
                + " filesystem store, TTL " + m(rolling, "ttl_ms") + " ms, poll " + m(rolling, "poll_ms") + " ms. Each"
                + " application warms up for " + m(rolling, "warmup_ms") + " ms (an application runner: started, not"
                + " ready). " + m(rolling, "rounds") + " rolling restarts of all three, as a deployment does them:"
                + " stop the oldest instance (SIGTERM: Boot's graceful close, a leader releases its lease), start its"
                + " replacement, wait until the replacement is ready and follows the election, next; "
                + m(rolling, "stops") + " stops, " + m(rolling, "handovers") + " of them of the leader. The time with"
                + " no leader runs from the old leader's `Lost` event to the next `Acquired` event of any instance"
                + " (wall-clock instants written by the electors on one host).");
        line("");
        line("| figure | value |");
        line("|---|---|");
        line("| time with no leader per handover, median (min to max) | " + f1(d(rolling, "no_leader_p50_ms"))
                + " ms (" + f1(d(rolling, "no_leader_min_ms")) + " to " + f1(d(rolling, "no_leader_max_ms"))
                + ") |");
        line("| SIGTERM of the leader to the next acquisition, median (max) | "
                + f1(d(rolling, "stop_to_acquired_p50_ms")) + " ms (" + f1(d(rolling, "stop_to_acquired_max_ms"))
                + ") |");
        line("| replacement JVM start to ready, median | " + f0(d(rolling, "replacement_ready_p50_ms")) + " ms |");
        line("| leader work runs checked | " + m(rolling, "leader_work_runs") + " |");
        line("| **two leaders** (leader work of two owners overlapping on the host's monotonic clock, or a token"
                + " going down) | " + m(rolling, "two_leaders") + " |");
        line("| **acquisitions before the instance was ready** | " + m(rolling, "acquired_before_ready") + " |");
        line("");
        line("The leader's release lets the next instance take over at its next poll, so the gap is bounded by the"
                + " release plus one poll, not by the TTL. A replacement never wins while it warms up: it writes no"
                + " claim until its readiness is `ACCEPTING_TRAFFIC`. The CI test `RollingRestartTests`"
                + " (hoplock-spring-boot-autoconfigure) runs one rolling restart of three JVMs with the leader stopped"
                + " while a replacement warms up and asserts the same two zeros. Raw data:"
                + " `benchmarks/results/rolling-restart.csv`.");
        line("");
    }
}
