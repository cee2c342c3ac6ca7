package dev.hoplock.chaos;

import dev.hoplock.chaos.NodeProcess.Event;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * The faults of a chaos run, in order (listed on {@link ChaosRun}): kill -9 of the leader, SIGSTOP of the leader, S3
 * server restarts, and the proxy's faults on the proxied node; after each, a bounded wait until the primitive settles.
 * Each scenario counts its fault, records the takeover time it measured, and records a failure when nobody took over
 * in time; every wait is bounded.
 */
final class Scenarios {

    private final Map<String, String> a;
    private final long ttl;
    private final long poll;
    private final Primitive primitive;
    private final List<String> resources;
    private final long hold;
    private final Duration s3Restart;
    private final NodeProcess.Events events;
    private final RunRecord record;
    private final Cluster cluster;
    private final S3MockProcess s3;
    private final TcpProxy proxy;
    private final @Nullable FencingLog log;
    private final WriteHistory history;

    /** {@code log} is the run's fencing log, null when the sink is a database table; {@code history} the sink's. */
    Scenarios(ChaosSettings settings, NodeProcess.Events events, RunRecord record, Cluster cluster, S3MockProcess s3,
            TcpProxy proxy, @Nullable FencingLog log, WriteHistory history) {
        this.a = settings.arguments();
        this.ttl = settings.ttl();
        this.poll = settings.poll();
        this.primitive = settings.primitive();
        this.resources = settings.resources();
        this.hold = settings.hold();
        this.s3Restart = settings.s3Restart();
        this.events = events;
        this.record = record;
        this.cluster = cluster;
        this.s3 = s3;
        this.proxy = proxy;
        this.log = log;
        this.history = history;
    }

    /**
     * Waits (at most 90 s, from {@code began}) for the first acquisition, then runs every scenario in turn, the number
     * of times the arguments say; without a first acquisition, runs none and records a failure.
     */
    void run(long began) throws Exception {
        if (cluster.awaitLeader(null, null, began, TimeUnit.SECONDS.toNanos(90)) == null) {
            record.fail("no first " + noun() + " within 90 s");
            return;
        }
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

    private void killLeader(String scenario) throws Exception {
        NodeProcess leader = cluster.currentLeader();
        if (leader == null) {
            record.fail(scenario + ": no " + noun() + " to kill");
            return;
        }
        Set<String> held = cluster.heldBy(leader);
        long t = System.nanoTime();
        leader.kill();
        record.count("kill -9 of " + primitive.holder());
        Event next = cluster.awaitLeader(leader.owner, held, t, ttl + poll + TimeUnit.SECONDS.toNanos(20));
        if (next == null) {
            record.fail(scenario + ": no new " + noun() + " within TTL + poll + 20 s after killing " + leader);
        } else {
            long took = next.nanos() - t;
            record.time("failover after kill -9 of " + primitive.holder(), took);
            record.say(scenario + ": killed " + leader + ", " + next.owner() + took(next) + " after " + ms(took) + " ms");
        }
        cluster.startNode(leader.slot, leader.proxied);
    }

    private void stopLeader() throws Exception {
        NodeProcess leader = cluster.currentLeader();
        if (leader == null) {
            record.fail("SIGSTOP: no " + noun());
            return;
        }
        Set<String> held = cluster.heldBy(leader);
        long pause = primitive.takeoverTtls() * ttl + TimeUnit.SECONDS.toNanos(2);
        long t = System.nanoTime();
        leader.stop();
        record.count("SIGSTOP of " + primitive.holder() + " for " + ttls() + " + 2 s");
        Event next = cluster.awaitLeader(leader.owner, held, t, pause);
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
            record.fail("SIGSTOP: nobody took over while " + leader + " was stopped for " + ms(pause) + " ms");
        } else {
            record.time("takeover while " + primitive.holder() + " is stopped", next.nanos() - t);
        }
        if (fenced != null) {
            record.count("stale append refused " + (log != null ? "by the log" : "by the database") + " after SIGCONT");
        }
        record.say("SIGSTOP " + leader + " for " + ms(pause) + " ms: " + (next == null ? "no takeover"
                : next.owner() + " took over" + (primitive == Primitive.ELECTOR ? " at generation " + next.generation()
                        : " " + next.resource() + " with token " + next.generation()) + " after " + ms(next.nanos() - t) + " ms")
                + "; on waking: " + (lost == null ? "no Lost event" : lost.line().replaceAll(" nanos=\\d+", ""))
                + (fenced == null ? "" : "; its in-flight append was refused: " + fenced.line().replaceAll(" (nanos|checked)=\\d+", "")));
    }

    private void restartS3(boolean graceful) throws Exception {
        long t = System.nanoTime();
        s3.stop(graceful);
        record.count(graceful ? "S3 server stopped (SIGTERM) and restarted" : "S3 server killed (SIGKILL) and restarted");
        long startup = s3.start(s3Restart, "restart after " + (graceful ? "SIGTERM" : "SIGKILL"));
        long ready = System.nanoTime();
        long resumed = awaitAcceptedAppend(ready, TimeUnit.SECONDS.toNanos(30));
        if (resumed < 0) {
            record.fail("S3 restart: no " + primitive.work() + " within 30 s of the server being back");
        } else {
            record.time(primitive.work() + " resumed after the S3 server was back", resumed - ready);
        }
        record.say("S3 server " + (graceful ? "SIGTERM" : "SIGKILL") + ": down " + ms(ready - t) + " ms (startup " + ms(startup)
                + " ms); " + primitive.work() + " resumed " + (resumed < 0 ? "never" : ms(resumed - ready) + " ms") + " after it was back");
    }

    private void proxyFault(TcpProxy.Mode mode) throws Exception {
        NodeProcess proxied = cluster.proxied();
        if (primitive == Primitive.LOCK && !cluster.acts(proxied)) {
            // Locks change holder by themselves: first give the proxied node a chance to take one.
            String owner = proxied.owner;
            long since = System.nanoTime();
            events.await(e -> e.owner().equals(owner) && e.type().equals("ACQUIRED") && e.nanos() > since,
                    2 * hold + 4 * poll);
        }
        for (int attempt = 0; attempt < 4 && !cluster.acts(proxied); attempt++) {
            killLeader("making " + proxied.owner + " " + primitive.holder());
            proxied = cluster.proxied();
        }
        proxied = cluster.proxied();
        boolean proxiedLeads = cluster.acts(proxied);
        Set<String> held = cluster.heldBy(proxied);
        long length = primitive.takeoverTtls() * ttl + TimeUnit.SECONDS.toNanos(3);
        long delay = TimeUnit.NANOSECONDS.toMillis(ttl) + 2000;
        long t = System.nanoTime();
        proxy.mode(mode, delay);
        record.count("proxy " + mode + (mode == TcpProxy.Mode.DELAY ? " " + delay + " ms" : "") + " for " + ttls() + " + 3 s");
        String owner = proxied.owner;
        Event other = proxiedLeads ? cluster.awaitLeader(owner, held, t, length) : null;
        LockSupport.parkNanos(Math.max(0, t + length - System.nanoTime()));
        proxy.mode(TcpProxy.Mode.PASS, 0);
        long healed = System.nanoTime();
        Event after = cluster.awaitLeader(null, null, healed - 1, TimeUnit.SECONDS.toNanos(1));
        if (proxiedLeads && mode != TcpProxy.Mode.RESET_RESPONSES && other == null) {
            record.fail("proxy " + mode + ": nobody took over from the cut-off " + noun() + " " + owner);
        }
        if (other != null) {
            record.time("takeover from " + (primitive == Primitive.ELECTOR ? "a leader" : primitive.holder())
                    + " cut off by the proxy", other.nanos() - t);
        }
        String role = primitive == Primitive.ELECTOR ? (proxiedLeads ? "led" : "followed")
                : proxiedLeads ? "acted on " + held : "acted on nothing";
        record.say("proxy " + mode + " on " + proxied + " for " + ms(length) + " ms, which " + role
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
            if (change == null && cluster.currentLeader() != null) {
                return;
            }
        }
        record.fail("leadership did not settle within 60 s");
    }

    private void settleEveryResource() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Set<String> held = new TreeSet<>();
            cluster.holdings().values().forEach(h -> held.addAll(h.keySet()));
            if (held.containsAll(resources)) {
                return;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        record.fail("not every one of " + resources + " had a " + noun() + " at one instant within 60 s");
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

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
