package dev.hoplock.chaos;

import dev.hoplock.chaos.FencingLog.Attempt;
import dev.hoplock.chaos.NodeProcess.Event;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The report of a chaos run, {@code report.txt} in the run's directory and on standard output: the settings, the
 * faults injected, what {@link ActingChecker} (and, with a database sink, {@link FencedTable#verify()}) found, the
 * times measured, the scenario log, and the result: FAIL if any check or scenario failed, else INCOMPLETE if the run
 * stopped early, else PASS. The exit status says the same (1, 2, 0).
 */
final class ChaosReport {

    private final Map<String, String> a;
    private final long ttl;
    private final long poll;
    private final Path out;
    private final Primitive primitive;
    private final List<String> resources;
    private final NodeProcess.Events events;
    private final RunRecord record;
    private final Cluster cluster;
    private final TcpProxy proxy;
    private final @Nullable FencedTable table;
    private final WriteHistory history;

    /** {@code table} is the run's database sink, null when the sink is the fencing log; {@code history} the sink's. */
    ChaosReport(ChaosSettings settings, NodeProcess.Events events, RunRecord record, Cluster cluster, TcpProxy proxy,
            @Nullable FencedTable table, WriteHistory history) {
        this.a = settings.arguments();
        this.ttl = settings.ttl();
        this.poll = settings.poll();
        this.out = settings.out();
        this.primitive = settings.primitive();
        this.resources = settings.resources();
        this.events = events;
        this.record = record;
        this.cluster = cluster;
        this.proxy = proxy;
        this.table = table;
        this.history = history;
    }

    /** The report of a run whose S3 server never answered: nothing ran, so nothing can be judged. */
    static int notStarted(ChaosSettings settings, S3MockProcess.NotReady e) throws Exception {
        Primitive primitive = settings.primitive();
        Path out = settings.out();
        List<String> lines = List.of("hoplock chaos run (" + primitive.argument() + "): not run; output in "
                + out.toAbsolutePath(), "INCOMPLETE: " + e.getMessage() + "; no node was started",
                "RESULT: INCOMPLETE");
        Files.write(out.resolve("report.txt"), lines);
        lines.forEach(System.out::println);
        return 2;
    }

    /**
     * Checks what ran, writes {@code report.txt} and prints it; the exit status: 1 if anything failed, else 2 if the
     * run stopped early, else 0.
     */
    int write(long began) throws Exception {
        List<Attempt> attempts = history.attempts();
        List<Event> all = events.all();

        ActingChecker.Findings found = ActingChecker.check(attempts, all, table != null);
        found.failures().forEach(record::fail);
        int staleRefused = found.staleRefused();

        List<String> lines = new ArrayList<>();
        lines.add("hoplock chaos run (" + primitive.argument() + (primitive == Primitive.ELECTOR ? ""
                : ", " + resources.size() + (primitive == Primitive.LOCK ? " lock names" : " keys")) + "): "
                + cluster.nodes().size() + " node JVMs over S3Mock 5.2.0, TTL " + ms(ttl) + " ms, poll "
                + ms(poll) + " ms, " + ms(System.nanoTime() - began) / 1000 + " s; output in " + out.toAbsolutePath());
        boolean fenced = Boolean.parseBoolean(a.getOrDefault("fenced", "true"));
        lines.add("downstream store: " + (table == null ? "the fencing log" : (fenced
                ? "fenced writes (JdbcFence check, then insert, in one transaction) to "
                : "UNFENCED writes (negative control: no fence check) to ") + table.describe()));
        lines.add("faults injected:");
        record.faults().forEach((k, v) -> lines.add(String.format("  %-62s %d", k, v)));
        lines.add("appends to the " + (table != null ? "database" : "fencing log") + ": " + attempts.size() + " ("
                + (attempts.size() - staleRefused) + " accepted, " + staleRefused + " refused as stale)");
        lines.add("terms (tokens acquired, per resource): " + found.terms() + "; acquired by two owners: "
                + found.shared() + "; acquisitions seen out of token order: " + found.outOfOrder());
        lines.add("overlaps (per resource, a lower token acting after a higher one did): " + found.overlaps());
        if (table == null) {
            lines.add("stale appends accepted (after a newer term began): " + found.staleAccepted());
        } else {
            FencedTable.Verdict verdict = table.verify();
            verdict.problems().forEach(record::fail);
            long sinkErrors = all.stream().filter(e -> e.type().equals("SINK_ERROR")).count();
            lines.add("fenced writes committed (rows in the write table): " + verdict.committed()
                    + "; refused as stale (the nodes' refusal logs): " + verdict.refused()
                    + "; failed for another reason (SINK_ERROR lines): " + sinkErrors);
            lines.add("stale writes accepted (a row whose token is below that of a row committed before it): "
                    + verdict.staleAccepted());
            lines.add("tokens that did not rise at a change of holder (consecutive rows of two owners): "
                    + verdict.tokenNotRisen());
            lines.add("legitimate writes refused (a refusal with no higher token written before it): "
                    + verdict.legitimateRefused());
            lines.add("late writes (committed after a newer term began; in token order, so allowed by the fence,"
                    + " unless counted as stale above): " + found.lateInTokenOrder());
        }
        record.timings().forEach((name, values) -> {
            List<Long> sorted = new ArrayList<>(values);
            Collections.sort(sorted);
            lines.add(String.format("%s: n=%d, p50 %d ms, p99 %d ms, max %d ms (TTL + poll = %d ms)", name, sorted.size(),
                    ms(sorted.get(Math.max(0, (int) Math.ceil(sorted.size() * 0.5) - 1))),
                    ms(sorted.get(Math.max(0, (int) Math.ceil(sorted.size() * 0.99) - 1))),
                    ms(sorted.get(sorted.size() - 1)), ms(ttl + poll)));
        });
        if (proxy.upstreamFailures() > 0) {
            lines.add("proxy connections reset because " + proxy.upstreamFailureCause() + ": "
                    + proxy.upstreamFailures());
        }
        lines.add("scenario log:");
        record.scenarioLog().forEach(r -> lines.add("  " + r));
        if (!record.failures().isEmpty()) {
            lines.add("RESULT: FAIL");
        } else if (record.incomplete() != null) {
            lines.add("RESULT: INCOMPLETE (no violation in what ran): " + record.incomplete());
        } else {
            lines.add("RESULT: PASS");
        }
        record.failures().forEach(f -> lines.add("  " + f));
        Files.write(out.resolve("report.txt"), lines);
        System.out.println();
        lines.forEach(System.out::println);
        return !record.failures().isEmpty() ? 1 : record.incomplete() != null ? 2 : 0;
    }

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
