package dev.hoplock.chaos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The chaos run: S3Mock, a {@link FencingLog}, a {@link TcpProxy} and three (or more) {@link ChaosNode} JVMs, of which
 * the last reaches S3 only through the proxy, all running one {@link Primitive}: an elector (the default), named locks
 * contended by every node, or members of one ownership group working on the keys they own. Each acting session works
 * on one resource (the elector's one, {@code lock/<name>}, {@code key/<key>}) with one token. Scenarios, each repeated
 * a bounded number of times (the "leader" below is the elector's leader, or a node holding a lock or owning a key):
 * <ol>
 *   <li>kill -9 of the leader (then a restart with a new owner id, the same member id): failover time;</li>
 *   <li>SIGSTOP of the leader for TTL + 2 s (ownership: 2 x TTL + 2 s, see {@link Primitive#takeoverTtls()}), then
 *       SIGCONT: another node must take over one of its resources during the pause, and the woken node must do no
 *       accepted work at its old token;</li>
 *   <li>S3 server restart (SIGKILL, then SIGTERM), same port and data: time until the work resumes;</li>
 *   <li>through the proxy, while the proxied node leads when that can be arranged: blackhole, delay beyond a TTL,
 *       connection resets, and resets of every answer (requests take effect, the SDK retries them).</li>
 * </ol>
 * Then {@link ActingChecker} counts, per resource, overlaps (a lower token's acting check true after a higher token's
 * was), stale appends accepted by the log after a newer term had begun, tokens acquired by two owners, and the run
 * exits non-zero if any is above zero or a scenario found no leader in time. Everything runs on 127.0.0.1 and every
 * wait is bounded. Arguments ({@code name=value}, all optional): primitive ({@code elector}, {@code lock},
 * {@code ownership}), resources (lock names: 3, keys: 6), holdMs (3000: a lock's hold, a claim's length), ttlMs (5000),
 * pollMs (250), nodes (3), kills (8), stops (5), restarts (2), out (directory), s3mockJar, workGapMs (50), brokenSlot
 * (none; for example n1: that slot's work ignores {@code isLeader()}, {@code isHeld()} or {@code isValid()} and
 * refusals, a negative control that must make the run fail), sink ({@code log}, the default: the {@link FencingLog};
 * {@code postgresql} or {@code mariadb}: a {@link FencedTable} on the local server, each append a transaction with the
 * {@code JdbcFence} check, with the token and the holder, before its insert), fenced (true; false skips the check in
 * every node: a negative control in which a woken stale holder's write is accepted, so the run must FAIL),
 * s3StartSeconds (180: how long S3Mock's start may take), s3RestartSeconds (as s3StartSeconds: a restart's),
 * proxyConnectMs (10000: how long the proxy waits for the server to accept a connection).
 *
 * <p>A loaded machine can stop a run: S3Mock not answering within s3RestartSeconds of a restart (more than 90 s was
 * seen at load average 40). Then the remaining scenarios are skipped, the nodes stopped, and what ran is still checked
 * and reported: the report names what happened and ends "RESULT: INCOMPLETE" (exit status 2) unless it found a
 * violation ("RESULT: FAIL", 1). The proxy's connections that the server refused or did not accept in time are counted
 * in the report.
 *
 * <p>With a database sink, the fence decides, not the lease: a write committed after a newer term began but before
 * any newer token was written is in token order and allowed (reported as a late write); what fails the run is a stale
 * write accepted, a token that did not rise at a change of holder or a legitimate write refused, as
 * {@link FencedTable#verify()} defines them.
 */
public final class ChaosRun {

    private final ChaosSettings settings;
    private final NodeProcess.Events events = new NodeProcess.Events();
    private final RunRecord record = new RunRecord();

    private ChaosRun(ChaosSettings settings) {
        this.settings = settings;
    }

    public static void main(String[] args) throws Exception {
        int code = new ChaosRun(ChaosSettings.parse(args)).run();
        System.exit(code);
    }

    private int run() throws Exception {
        Path out = settings.out();
        Files.createDirectories(out);
        long began = System.nanoTime();
        S3MockProcess s3 = new S3MockProcess(Path.of(settings.arg("s3mockJar", "target/s3mock/s3mock-5.2.0-exec.jar")),
                Files.createDirectories(out.resolve("s3root")), out.resolve("s3mock.log"));
        try {
            record.say("S3Mock on 127.0.0.1:" + s3.port() + " ready in " + ms(s3.start(settings.s3Start(), "start"))
                    + " ms");
        } catch (S3MockProcess.NotReady e) {
            s3.stop(false);
            return ChaosReport.notStarted(settings, e);
        }
        @Nullable FencingLog log = null;
        @Nullable FencedTable table = null;
        WriteHistory history;
        String sink = settings.arg("sink", "log");
        if (sink.equals("log")) {
            log = new FencingLog(out.resolve("fencing-log.csv"));
            history = log;
        } else {
            table = new FencedTable(sink, out);
            history = table;
        }
        TcpProxy proxy = new TcpProxy(s3.port(), Integer.parseInt(settings.arg("proxyConnectMs", "10000")));
        record.say((log != null ? "fencing log on 127.0.0.1:" + log.port() : "fenced writes to " + Objects.requireNonNull(table, "no log, so a table").describe())
                + ", proxy 127.0.0.1:" + proxy.port() + " -> " + s3.port());
        Cluster cluster = new Cluster(settings, events, record, s3, proxy, log, table);
        int count = Integer.parseInt(settings.arg("nodes", "3"));
        try {
            for (int i = 1; i <= count; i++) {
                cluster.startNode("n" + i, i == count);
            }
            new Scenarios(settings, events, record, cluster, s3, proxy, log, history).run(began);
        } catch (S3MockProcess.NotReady e) {
            record.incomplete(e.getMessage() + "; the scenarios after it were skipped");
            record.say("INCOMPLETE: " + record.incomplete());
        } finally {
            cluster.killAll();
            proxy.close();
            s3.stop(true);
        }
        try {
            return new ChaosReport(settings, events, record, cluster, proxy, table, history).write(began);
        } finally {
            if (log != null) {
                log.close();
            }
            if (table != null) {
                table.close();
            }
        }
    }

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
