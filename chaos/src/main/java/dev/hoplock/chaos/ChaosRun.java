package dev.hoplock.chaos;

import dev.hoplock.chaos.FencingLog.Attempt;
import dev.hoplock.chaos.NodeProcess.Event;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

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

    private final Map<String, String> a;
    private final long ttl;
    private final long poll;
    private final Path out;
    private final Primitive primitive;
    private final List<String> resources;
    private final long hold;
    private final Duration s3Start;
    private final Duration s3Restart;
    private final NodeProcess.Events events = new NodeProcess.Events();
    private final Map<String, NodeProcess> nodes = new LinkedHashMap<>();
    private final Map<String, Integer> incarnations = new HashMap<>();
    private final List<String> report = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final Map<String, List<Long>> timings = new LinkedHashMap<>();
    private final Map<String, Integer> faults = new TreeMap<>();
    private S3MockProcess s3;
    private FencingLog log;
    private FencedTable table;
    private WriteHistory history;
    private TcpProxy proxy;
    private String incomplete;

    private ChaosRun(Map<String, String> a) {
        this.a = a;
        this.ttl = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(a.getOrDefault("ttlMs", "5000")));
        this.poll = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(a.getOrDefault("pollMs", "250")));
        this.primitive = Primitive.parse(a.getOrDefault("primitive", "elector"));
        this.resources = primitive.resources(primitive.resourceCount(a.get("resources")));
        this.hold = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(a.getOrDefault("holdMs", "3000")));
        this.s3Start = Duration.ofSeconds(Long.parseLong(a.getOrDefault("s3StartSeconds", "180")));
        this.s3Restart = Duration.ofSeconds(Long.parseLong(a.getOrDefault("s3RestartSeconds",
                Long.toString(s3Start.toSeconds()))));
        this.out = Path.of(a.getOrDefault("out", "target/chaos/"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))));
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("arguments are name=value, got " + arg);
            }
            a.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        int code = new ChaosRun(a).run();
        System.exit(code);
    }

    private int run() throws Exception {
        Files.createDirectories(out);
        long began = System.nanoTime();
        s3 = new S3MockProcess(Path.of(a.getOrDefault("s3mockJar", "target/s3mock/s3mock-5.2.0-exec.jar")),
                Files.createDirectories(out.resolve("s3root")), out.resolve("s3mock.log"));
        try {
            say("S3Mock on 127.0.0.1:" + s3.port() + " ready in " + ms(s3.start(s3Start, "start")) + " ms");
        } catch (S3MockProcess.NotReady e) {
            s3.stop(false);
            return notStarted(e);
        }
        String sink = a.getOrDefault("sink", "log");
        if (sink.equals("log")) {
            log = new FencingLog(out.resolve("fencing-log.csv"));
            history = log;
        } else {
            table = new FencedTable(sink, out);
            history = table;
        }
        proxy = new TcpProxy(s3.port(), Integer.parseInt(a.getOrDefault("proxyConnectMs", "10000")));
        say((log != null ? "fencing log on 127.0.0.1:" + log.port() : "fenced writes to " + table.describe())
                + ", proxy 127.0.0.1:" + proxy.port() + " -> " + s3.port());
        int count = Integer.parseInt(a.getOrDefault("nodes", "3"));
        try {
            for (int i = 1; i <= count; i++) {
                startNode("n" + i, i == count);
            }
            if (awaitLeader(null, null, began, TimeUnit.SECONDS.toNanos(90)) == null) {
                failures.add("no first " + noun() + " within 90 s");
            } else {
                scenarios();
            }
        } catch (S3MockProcess.NotReady e) {
            incomplete = e.getMessage() + "; the scenarios after it were skipped";
            say("INCOMPLETE: " + incomplete);
        } finally {
            for (NodeProcess node : nodes.values()) {
                if (node.alive()) {
                    node.cont();
                    node.kill();
                }
            }
            proxy.close();
            s3.stop(true);
        }
        try {
            return finish(began);
        } finally {
            if (log != null) {
                log.close();
            }
            if (table != null) {
                table.close();
            }
        }
    }

    /** The report of a run whose S3 server never answered: nothing ran, so nothing can be judged. */
    private int notStarted(S3MockProcess.NotReady e) throws Exception {
        List<String> lines = List.of("hoplock chaos run (" + primitive.argument() + "): not run; output in "
                + out.toAbsolutePath(), "INCOMPLETE: " + e.getMessage() + "; no node was started",
                "RESULT: INCOMPLETE");
        Files.write(out.resolve("report.txt"), lines);
        lines.forEach(System.out::println);
        return 2;
    }

    private void scenarios() throws Exception {
        for (int i = 0; i < Integer.parseInt(a.getOrDefault("kills", "8")); i++) {
            killLeader("kill -9 of " + primitive.holder());
        }
        for (int i = 0; i < Integer.parseInt(a.getOrDefault("stops", "5")); i++) {
            stopLeader();
        }
        int restarts = Integer.parseInt(a.getOrDefault("restarts", "2"));
        for (int i = 0; i < restarts; i++) {
            restartS3(i % 2 == 1);
        }
        for (TcpProxy.Mode mode : List.of(TcpProxy.Mode.BLACKHOLE, TcpProxy.Mode.DELAY, TcpProxy.Mode.RESET,
                TcpProxy.Mode.RESET_RESPONSES)) {
            proxyFault(mode);
        }
        settle();
    }

    // ------------------------------------------------------------------ scenarios

    private void killLeader(String scenario) throws Exception {
        NodeProcess leader = currentLeader();
        if (leader == null) {
            failures.add(scenario + ": no " + noun() + " to kill");
            return;
        }
        Set<String> held = heldBy(leader);
        long t = System.nanoTime();
        leader.kill();
        count("kill -9 of " + primitive.holder());
        Event next = awaitLeader(leader.owner, held, t, ttl + poll + TimeUnit.SECONDS.toNanos(20));
        if (next == null) {
            failures.add(scenario + ": no new " + noun() + " within TTL + poll + 20 s after killing " + leader);
        } else {
            long took = next.nanos() - t;
            timings.computeIfAbsent("failover after kill -9 of " + primitive.holder(), k -> new ArrayList<>()).add(took);
            say(scenario + ": killed " + leader + ", " + next.owner() + took(next) + " after " + ms(took) + " ms");
        }
        startNode(leader.slot, leader.proxied);
    }

    private void stopLeader() throws Exception {
        NodeProcess leader = currentLeader();
        if (leader == null) {
            failures.add("SIGSTOP: no " + noun());
            return;
        }
        Set<String> held = heldBy(leader);
        long pause = primitive.takeoverTtls() * ttl + TimeUnit.SECONDS.toNanos(2);
        long t = System.nanoTime();
        leader.stop();
        count("SIGSTOP of " + primitive.holder() + " for " + ttls() + " + 2 s");
        Event next = awaitLeader(leader.owner, held, t, pause);
        LockSupport.parkNanos(Math.max(0, t + pause - System.nanoTime()));
        // Taken before SIGCONT: the node wakes (and may print) before the kill command returns; while stopped it
        // prints nothing, so every later line of it is from after waking.
        long woke = System.nanoTime();
        leader.cont();
        Event lost = events.await(e -> e.owner().equals(leader.owner) && e.type().equals("LOST") && e.nanos() > woke
                        && held.contains(e.resource()),
                TimeUnit.SECONDS.toNanos(10));
        Event fenced = events.await(e -> e.owner().equals(leader.owner) && e.type().equals("FENCED") && e.nanos() > woke,
                TimeUnit.SECONDS.toNanos(2));
        if (next == null) {
            failures.add("SIGSTOP: nobody took over while " + leader + " was stopped for " + ms(pause) + " ms");
        } else {
            timings.computeIfAbsent("takeover while " + primitive.holder() + " is stopped", k -> new ArrayList<>())
                    .add(next.nanos() - t);
        }
        if (fenced != null) {
            count("stale append refused " + (log != null ? "by the log" : "by the database") + " after SIGCONT");
        }
        say("SIGSTOP " + leader + " for " + ms(pause) + " ms: " + (next == null ? "no takeover"
                : next.owner() + " took over" + (primitive == Primitive.ELECTOR ? " at generation " + next.generation()
                        : " " + next.resource() + " with token " + next.generation()) + " after " + ms(next.nanos() - t) + " ms")
                + "; on waking: " + (lost == null ? "no Lost event" : lost.line().replaceAll(" nanos=\\d+", ""))
                + (fenced == null ? "" : "; its in-flight append was refused: " + fenced.line().replaceAll(" (nanos|checked)=\\d+", "")));
    }

    private void restartS3(boolean graceful) throws Exception {
        long t = System.nanoTime();
        s3.stop(graceful);
        count(graceful ? "S3 server stopped (SIGTERM) and restarted" : "S3 server killed (SIGKILL) and restarted");
        long startup = s3.start(s3Restart, "restart after " + (graceful ? "SIGTERM" : "SIGKILL"));
        long ready = System.nanoTime();
        long resumed = awaitAcceptedAppend(ready, TimeUnit.SECONDS.toNanos(30));
        if (resumed < 0) {
            failures.add("S3 restart: no " + primitive.work() + " within 30 s of the server being back");
        } else {
            timings.computeIfAbsent(primitive.work() + " resumed after the S3 server was back", k -> new ArrayList<>())
                    .add(resumed - ready);
        }
        say("S3 server " + (graceful ? "SIGTERM" : "SIGKILL") + ": down " + ms(ready - t) + " ms (startup " + ms(startup)
                + " ms); " + primitive.work() + " resumed " + (resumed < 0 ? "never" : ms(resumed - ready) + " ms") + " after it was back");
    }

    private void proxyFault(TcpProxy.Mode mode) throws Exception {
        NodeProcess proxied = nodes.values().stream().filter(n -> n.proxied).findFirst().orElseThrow();
        if (primitive == Primitive.LOCK && !acts(proxied)) {
            // Locks change holder by themselves: first give the proxied node a chance to take one.
            String owner = proxied.owner;
            long since = System.nanoTime();
            events.await(e -> e.owner().equals(owner) && e.type().equals("ACQUIRED") && e.nanos() > since,
                    2 * hold + 4 * poll);
        }
        for (int attempt = 0; attempt < 4 && !acts(proxied); attempt++) {
            killLeader("making " + proxied.owner + " " + primitive.holder());
            proxied = nodes.values().stream().filter(n -> n.proxied).findFirst().orElseThrow();
        }
        proxied = nodes.values().stream().filter(n -> n.proxied).findFirst().orElseThrow();
        boolean proxiedLeads = acts(proxied);
        Set<String> held = heldBy(proxied);
        long length = primitive.takeoverTtls() * ttl + TimeUnit.SECONDS.toNanos(3);
        long delay = TimeUnit.NANOSECONDS.toMillis(ttl) + 2000;
        long t = System.nanoTime();
        proxy.mode(mode, delay);
        count("proxy " + mode + (mode == TcpProxy.Mode.DELAY ? " " + delay + " ms" : "") + " for " + ttls() + " + 3 s");
        String owner = proxied.owner;
        Event other = proxiedLeads ? awaitLeader(owner, held, t, length) : null;
        LockSupport.parkNanos(Math.max(0, t + length - System.nanoTime()));
        proxy.mode(TcpProxy.Mode.PASS, 0);
        long healed = System.nanoTime();
        Event after = awaitLeader(null, null, healed - 1, TimeUnit.SECONDS.toNanos(1));
        if (proxiedLeads && mode != TcpProxy.Mode.RESET_RESPONSES && other == null) {
            failures.add("proxy " + mode + ": nobody took over from the cut-off " + noun() + " " + owner);
        }
        if (other != null) {
            timings.computeIfAbsent("takeover from " + (primitive == Primitive.ELECTOR ? "a leader" : primitive.holder())
                    + " cut off by the proxy", k -> new ArrayList<>()).add(other.nanos() - t);
        }
        String role = primitive == Primitive.ELECTOR ? (proxiedLeads ? "led" : "followed")
                : proxiedLeads ? "acted on " + held : "acted on nothing";
        say("proxy " + mode + " on " + proxied + " for " + ms(length) + " ms, which " + role
                + ": " + (other == null ? "no other node took over" : other.owner() + " took over"
                + (primitive == Primitive.ELECTOR ? "" : " " + other.resource()) + " after "
                + ms(other.nanos() - t) + " ms") + (after == null ? "" : "; after healing " + after.owner() + " acquired"
                + (primitive == Primitive.ELECTOR ? "" : " " + after.resource())));
        settle();
    }

    /**
     * Waits (bounded) until some node leads and leadership did not change for two seconds; with locks or ownership,
     * until every lock name or key is held by a living node at one instant (they change holder by themselves).
     */
    private void settle() throws InterruptedException {
        if (primitive != Primitive.ELECTOR) {
            settleEveryResource();
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            long since = System.nanoTime();
            Event change = events.await(e -> e.nanos() > since && (e.type().equals("ACQUIRED") || e.type().equals("LOST")),
                    TimeUnit.SECONDS.toNanos(2));
            if (change == null && currentLeader() != null) {
                return;
            }
        }
        failures.add("leadership did not settle within 60 s");
    }

    private void settleEveryResource() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Set<String> held = new TreeSet<>();
            holdings().values().forEach(h -> held.addAll(h.keySet()));
            if (held.containsAll(resources)) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        failures.add("not every one of " + resources + " had a " + noun() + " at one instant within 60 s");
    }

    // ------------------------------------------------------------------ helpers

    private void startNode(String slot, boolean proxied) throws Exception {
        int incarnation = incarnations.merge(slot, 1, Integer::sum);
        String owner = slot + "-" + incarnation;
        String endpoint = "http://127.0.0.1:" + (proxied ? proxy.port() : s3.port());
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx96m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), ChaosNode.class.getName(),
                "endpoint=" + endpoint, "bucket=" + S3MockProcess.BUCKET, "key=chaos/leader", "owner=" + owner,
                "ttlMs=" + TimeUnit.NANOSECONDS.toMillis(ttl), "pollMs=" + TimeUnit.NANOSECONDS.toMillis(poll),
                "logPort=" + (log != null ? log.port() : 0), "workGapMs=" + a.getOrDefault("workGapMs", "50"), "maxRuntimeS=1800",
                "checkLeader=" + !slot.equals(a.getOrDefault("brokenSlot", "none")),
                "primitive=" + primitive.argument(), "resources=" + resources.size(), "memberId=" + slot,
                "holdMs=" + TimeUnit.NANOSECONDS.toMillis(hold)));
        if (table != null) {
            command.addAll(table.nodeArguments(owner, Boolean.parseBoolean(a.getOrDefault("fenced", "true"))));
        }
        NodeProcess node = NodeProcess.start(slot, owner, proxied, command, out.resolve(owner + ".log"), events);
        nodes.put(slot, node);
        Event started = events.await(e -> e.owner().equals(owner) && e.type().equals("STARTED"), TimeUnit.SECONDS.toNanos(60));
        if (started == null) {
            failures.add(owner + " did not start within 60 s; see " + out.resolve(owner + ".log"));
        }
    }

    /**
     * What each living node acts on: the resources whose latest ACQUIRED line of that node is not followed by a LOST
     * or RELEASED line for the same resource, with the token (generation) of that ACQUIRED.
     */
    private Map<NodeProcess, Map<String, Long>> holdings() {
        Map<String, Map<String, Event>> last = new HashMap<>();
        for (Event e : events.all()) {
            if (e.type().equals("ACQUIRED") || e.type().equals("LOST") || e.type().equals("RELEASED")) {
                last.computeIfAbsent(e.owner(), o -> new HashMap<>()).put(e.resource(), e);
            }
        }
        Map<NodeProcess, Map<String, Long>> holdings = new LinkedHashMap<>();
        for (NodeProcess node : nodes.values()) {
            Map<String, Long> held = new TreeMap<>();
            last.getOrDefault(node.owner, Map.of()).forEach((resource, e) -> {
                if (e.type().equals("ACQUIRED")) {
                    held.put(resource, e.generation());
                }
            });
            if (node.alive() && !held.isEmpty()) {
                holdings.put(node, held);
            }
        }
        return holdings;
    }

    /**
     * The living node that acts on something (the elector: whose latest ACQUIRED is not followed by a LOST), the one
     * with the highest token if several.
     */
    private NodeProcess currentLeader() {
        NodeProcess best = null;
        long bestGeneration = -1;
        for (Map.Entry<NodeProcess, Map<String, Long>> holding : holdings().entrySet()) {
            long generation = holding.getValue().values().stream().mapToLong(Long::longValue).max().orElse(-1);
            if (generation > bestGeneration) {
                best = holding.getKey();
                bestGeneration = generation;
            }
        }
        return best;
    }

    /** The resources {@code node} acts on now (empty if none). */
    private Set<String> heldBy(NodeProcess node) {
        return holdings().getOrDefault(node, Map.of()).keySet();
    }

    /** Whether {@code node} acts now: the elector's current leader, or holding some lock or key. */
    private boolean acts(NodeProcess node) {
        return primitive == Primitive.ELECTOR ? currentLeader() == node : !heldBy(node).isEmpty();
    }

    /** The first ACQUIRED after {@code since} by another owner than {@code notOwner}, of one of {@code resources}. */
    private Event awaitLeader(String notOwner, Set<String> resources, long since, long timeout)
            throws InterruptedException {
        return events.await(e -> e.type().equals("ACQUIRED") && e.nanos() > since
                && (notOwner == null || !e.owner().equals(notOwner))
                && (resources == null || resources.contains(e.resource())), timeout);
    }

    /** How a takeover reads in the scenario log. */
    private String took(Event acquired) {
        return primitive == Primitive.ELECTOR ? " leads at generation " + acquired.generation()
                : " acts on " + acquired.resource() + " with token " + acquired.generation();
    }

    /** How long a takeover may take before slack, as a scenario's label says it: "TTL" or "2 x TTL". */
    private String ttls() {
        return primitive.takeoverTtls() == 1 ? "TTL" : primitive.takeoverTtls() + " x TTL";
    }

    /** The name of who acts: "leader", "lock holder", "key owner". */
    private String noun() {
        return primitive.holder().replaceFirst("^(the|a) ", "");
    }

    private long awaitAcceptedAppend(long since, long timeout) throws Exception {
        long deadline = System.nanoTime() + timeout;
        while (System.nanoTime() < deadline) {
            long first = history.firstAcceptedAfter(since);
            if (first >= 0) {
                return first;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        return -1;
    }

    private void count(String fault) {
        faults.merge(fault, 1, Integer::sum);
    }

    private void say(String line) {
        System.out.println(line);
        report.add(line);
    }

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    // ------------------------------------------------------------------ analysis

    private int finish(long began) throws Exception {
        List<Attempt> attempts = history.attempts();
        List<Event> all = events.all();

        ActingChecker.Findings found = ActingChecker.check(attempts, all, table != null);
        failures.addAll(found.failures());
        int staleRefused = found.staleRefused();

        List<String> lines = new ArrayList<>();
        lines.add("hoplock chaos run (" + primitive.argument() + (primitive == Primitive.ELECTOR ? ""
                : ", " + resources.size() + (primitive == Primitive.LOCK ? " lock names" : " keys")) + "): "
                + nodes.size() + " node JVMs over S3Mock 5.2.0, TTL " + ms(ttl) + " ms, poll "
                + ms(poll) + " ms, " + ms(System.nanoTime() - began) / 1000 + " s; output in " + out.toAbsolutePath());
        boolean fenced = Boolean.parseBoolean(a.getOrDefault("fenced", "true"));
        lines.add("downstream store: " + (table == null ? "the fencing log" : (fenced
                ? "fenced writes (JdbcFence check, then insert, in one transaction) to "
                : "UNFENCED writes (negative control: no fence check) to ") + table.describe()));
        lines.add("faults injected:");
        faults.forEach((k, v) -> lines.add(String.format("  %-62s %d", k, v)));
        lines.add("appends to the " + (table != null ? "database" : "fencing log") + ": " + attempts.size() + " ("
                + (attempts.size() - staleRefused) + " accepted, " + staleRefused + " refused as stale)");
        lines.add("terms (tokens acquired, per resource): " + found.terms() + "; acquired by two owners: "
                + found.shared() + "; acquisitions seen out of token order: " + found.outOfOrder());
        lines.add("overlaps (per resource, a lower token acting after a higher one did): " + found.overlaps());
        if (table == null) {
            lines.add("stale appends accepted (after a newer term began): " + found.staleAccepted());
        } else {
            FencedTable.Verdict verdict = table.verify();
            failures.addAll(verdict.problems());
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
        timings.forEach((name, values) -> {
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
        report.forEach(r -> lines.add("  " + r));
        if (!failures.isEmpty()) {
            lines.add("RESULT: FAIL");
        } else if (incomplete != null) {
            lines.add("RESULT: INCOMPLETE (no violation in what ran): " + incomplete);
        } else {
            lines.add("RESULT: PASS");
        }
        failures.forEach(f -> lines.add("  " + f));
        Files.write(out.resolve("report.txt"), lines);
        System.out.println();
        lines.forEach(System.out::println);
        return !failures.isEmpty() ? 1 : incomplete != null ? 2 : 0;
    }
}
