package dev.hoplock.chaos;

import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.Lease;
import dev.hoplock.core.election.LeaderScope;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.s3.S3Backend;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * One node of the chaos run, in its own JVM, over {@link S3Backend} (S3Mock, directly or through the
 * {@link TcpProxy}), running one {@link Primitive}: an {@link Elector} (the default), named locks ({@link LockWork})
 * or a member of an ownership group ({@link OwnershipWork}). Whatever the primitive, each acting session runs the same
 * {@link WorkLoop}: fenced appends to the session's resource with its token, each carrying the owner and the monotonic
 * readings around the check that allowed it, sent {@code workGapMs} after that check. A {@code STALE} answer ends the
 * session's work. Events go to stdout as one line each ({@code ACQUIRED}, {@code LOST}, {@code FENCED}, ..., with
 * {@code resource=} for a lock name or key); logs go to stderr.
 *
 * <p>Arguments ({@code name=value}): endpoint, bucket, key (the elector's), owner, ttlMs, pollMs, logPort, workGapMs
 * (50), appendEveryMs (10), maxRuntimeS, checkLeader (true; false makes this node a negative control whose work
 * ignores the end of its term, lock or claim), primitive ({@code elector}, {@code lock} or {@code ownership}),
 * resources (how many lock names or keys), holdMs (3000: how long a lock is held, or a claim kept open, before it is
 * released or closed and taken again), memberId (the ownership member id; the owner, i.e. the process, changes at a
 * restart, the member id does not). With {@code jdbcUrl}, {@code jdbcUser}, {@code fenceTable}, {@code writeTable},
 * {@code refusalLog} and {@code fenced} (true unless a negative control) the appends go to a {@link FencedTableSink}
 * (a fenced transaction on PostgreSQL or MariaDB) instead of the fencing log; an append that fails for another reason
 * than a refusal prints {@code SINK_ERROR}.
 */
public final class ChaosNode {

    private ChaosNode() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            a.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        Settings settings = Settings.parse(a);
        S3Backend backend = backend(a, settings.ttl(), settings.endAt());
        switch (settings.primitive()) {
            case ELECTOR -> lead(backend, settings);
            case LOCK -> LockWork.run(backend, settings);
            case OWNERSHIP -> OwnershipWork.run(backend, settings);
        }
        backend.close();
    }

    /**
     * What every primitive's work needs: the node's identity, timings, its lock names or keys, whether it is a broken
     * slot ({@code checkLeader=false}), and where its fenced writes go ({@link #downstream(String)}).
     */
    record Settings(Primitive primitive, String owner, String memberId, Duration ttl, Duration poll, long workGapNanos,
                    long appendEveryNanos, long holdNanos, boolean checkActing, long endAt, List<String> names,
                    Map<String, String> arguments) {

        static Settings parse(Map<String, String> a) {
            Primitive primitive = Primitive.parse(a.getOrDefault("primitive", "elector"));
            String owner = Objects.requireNonNull(a.get("owner"), "owner= is required");
            return new Settings(primitive, owner, a.getOrDefault("memberId", owner),
                    Duration.ofMillis(Long.parseLong(a.get("ttlMs"))), Duration.ofMillis(Long.parseLong(a.get("pollMs"))),
                    TimeUnit.MILLISECONDS.toNanos(Long.parseLong(a.getOrDefault("workGapMs", "50"))),
                    TimeUnit.MILLISECONDS.toNanos(Long.parseLong(a.getOrDefault("appendEveryMs", "10"))),
                    TimeUnit.MILLISECONDS.toNanos(Long.parseLong(a.getOrDefault("holdMs", "3000"))),
                    // A negative control: work that, once started, never asks whether it still acts and ignores
                    // refusals.
                    Boolean.parseBoolean(a.getOrDefault("checkLeader", "true")),
                    System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(a.getOrDefault("maxRuntimeS", "1800"))),
                    primitive.names(primitive.resourceCount(a.get("resources"))), Map.copyOf(a));
        }

        /**
         * When a session begun now ends: after {@code holdMs}; for a broken slot never (before the node's end), as
         * the elector's broken work never ends: work that ignores the lock or the claim goes on after losing it.
         */
        long sessionEnd() {
            return checkActing ? Math.min(endAt, System.nanoTime() + holdNanos) : endAt;
        }

        /**
         * Prints {@code STARTED}, then runs {@code work} for every lock name or key on a thread of its own, each with a
         * {@link WorkLoop} (and connection) of its own, and returns when all of them have ended.
         */
        void startedThenPerName(PerName work) throws Exception {
            print("STARTED owner=" + owner + " nanos=" + System.nanoTime() + " pid=" + ProcessHandle.current().pid());
            List<Thread> workers = new ArrayList<>();
            for (String name : names) {
                String resource = primitive.resource(name);
                WorkLoop loop = workLoop(resource);
                Thread worker = new Thread(() -> {
                    try {
                        work.run(name, resource, loop);
                    } catch (IOException e) {
                        throw new UncheckedIOException(resource + ": the downstream store failed", e);
                    }
                }, resource);
                worker.start();
                workers.add(worker);
            }
            for (Thread worker : workers) {
                worker.join();
            }
        }

        /** A work loop of its own (with its own connection) for the session of one thread. */
        WorkLoop workLoop(String resource) throws IOException {
            return new WorkLoop(owner, downstream(resource), workGapNanos, appendEveryNanos, checkActing);
        }

        /**
         * Where fenced writes to {@code resource} go: the {@link FencedTableSink} when {@code jdbcUrl} is given (its
         * refusal log {@code refusalLog}, or for a lock name or key a log of its own beside it), else the fencing log.
         */
        Downstream downstream(String resource) throws IOException {
            if (!arguments.containsKey("jdbcUrl")) {
                return new Fencing(Integer.parseInt(arguments.get("logPort")));
            }
            String refusalLog = Objects.requireNonNull(arguments.get("refusalLog"), "refusalLog= comes with jdbcUrl=");
            if (primitive != Primitive.ELECTOR) {
                refusalLog = refusalLog.replace(".refusals.csv", "." + resource.replace('/', '_') + ".refusals.csv");
            }
            return new FencedTableSink(arguments.get("jdbcUrl"), Objects.requireNonNull(arguments.get("jdbcUser"), "jdbcUser= comes with jdbcUrl="),
                    Objects.requireNonNull(arguments.get("fenceTable"), "fenceTable= comes with jdbcUrl="),
                    Objects.requireNonNull(arguments.get("writeTable"), "writeTable= comes with jdbcUrl="), Path.of(refusalLog), Boolean.parseBoolean(arguments.get("fenced")));
        }
    }

    /** The work of one thread on one lock name or key, for {@link Settings#startedThenPerName}. */
    interface PerName {
        void run(String name, String resource, WorkLoop loop) throws IOException;
    }

    /** The elector's work: while leading, the {@link WorkLoop} on {@link Primitive#ELECTOR_RESOURCE}. */
    private static void lead(S3Backend backend, Settings s) throws Exception {
        String owner = s.owner();
        Elector elector = Elector.builder(backend, Objects.requireNonNull(s.arguments().get("key"), "key= is required")).owner(owner).ttl(s.ttl())
                .pollInterval(s.poll()).build();
        elector.addListener(event -> print(describe(owner, event)));
        elector.start();
        print("STARTED owner=" + owner + " nanos=" + System.nanoTime() + " pid=" + ProcessHandle.current().pid());

        WorkLoop work = s.workLoop(Primitive.ELECTOR_RESOURCE);
        while (System.nanoTime() < s.endAt()) {
            Optional<LeaderScope> entered = elector.enterLeaderScope(false);
            if (entered.isEmpty()) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                continue;
            }
            try (LeaderScope scope = entered.get()) {
                long generation = scope.lease().generation();
                print("LEADING owner=" + owner + " gen=" + generation + " nanos=" + System.nanoTime());
                work.run(Primitive.ELECTOR_RESOURCE, generation, () -> elector.isLeader()
                        && elector.currentLease().map(Lease::generation).orElse(-1L) == generation, s.endAt());
            }
        }
        elector.close();
    }

    /** The S3 backend; retried (bounded) while the server is not up yet, for example during its restart. */
    private static S3Backend backend(Map<String, String> a, Duration ttl, long endAt) throws Exception {
        BackendException last = null;
        for (int attempt = 0; attempt < 120 && System.nanoTime() < endAt; attempt++) {
            try {
                return S3Backend.builder()
                        .endpoint(a.get("endpoint")).pathStyle(true).region("us-east-1").credentials("chaos", "chaos")
                        .bucket(Objects.requireNonNull(a.get("bucket"), "bucket= is required"))
                        .requestTimeout(ttl.dividedBy(3))
                        .build();
            } catch (BackendException e) {
                last = e;
                System.err.println("backend not ready: " + e.getMessage());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500));
            }
        }
        throw last != null ? last : new IllegalStateException("no time left to build the backend");
    }

    private static String describe(String owner, ElectionEvent event) {
        String base = " owner=" + owner + " nanos=" + System.nanoTime();
        if (event instanceof ElectionEvent.Acquired e) {
            return "ACQUIRED" + base + " gen=" + e.lease().generation();
        }
        if (event instanceof ElectionEvent.Lost e) {
            return "LOST" + base + " gen=" + e.lease().generation() + " cause=" + e.cause();
        }
        if (event instanceof ElectionEvent.Problem e) {
            return "PROBLEM" + base + " kind=" + e.kind() + " message=" + e.message().replace('\n', ' ');
        }
        if (event instanceof ElectionEvent.LeaderObserved e) {
            return "OBSERVED" + base + " holder=" + e.holder().map(h -> h.owner() + "/" + h.generation()).orElse("-");
        }
        return "RENEWED" + base;
    }

    static synchronized void print(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /**
     * Where leader work appends: answers {@code OK}, {@code STALE <highest token>} (refused by the fence) or
     * {@code ERROR <cause>} (not written, for another reason).
     */
    interface Downstream {
        String append(String owner, String resource, long token, long before, long after) throws IOException;
    }

    /** A connection to the fencing log; reconnects once per append if the connection broke. */
    private static final class Fencing implements Downstream {
        private final int port;
        private @Nullable Socket socket;
        private @Nullable BufferedReader in;
        private @Nullable PrintWriter out;

        Fencing(int port) {
            this.port = port;
        }

        @Override
        public String append(String owner, String resource, long token, long before, long after)
                throws IOException {
            for (int attempt = 0; ; attempt++) {
                try {
                    if (socket == null) {
                        socket = new Socket();
                        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
                        socket.setSoTimeout(5000);
                        in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                        out = new PrintWriter(new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8), true);
                    }
                    Objects.requireNonNull(out, "connected above").println("APPEND " + owner + " " + token + " " + before + " " + after + " " + resource);
                    String reply = Objects.requireNonNull(in, "connected above").readLine();
                    if (reply == null) {
                        throw new IOException("fencing log closed the connection");
                    }
                    return reply;
                } catch (IOException e) {
                    if (socket != null) {
                        socket.close();
                        socket = null;
                    }
                    if (attempt >= 1) {
                        throw e;
                    }
                }
            }
        }
    }
}
