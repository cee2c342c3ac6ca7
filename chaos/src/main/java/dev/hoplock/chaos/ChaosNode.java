package dev.hoplock.chaos;

import dev.hoplock.core.ElectionEvent;
import dev.hoplock.core.Elector;
import dev.hoplock.core.Lease;
import dev.hoplock.core.LeaderScope;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.s3.S3Backend;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One node of the chaos run, in its own JVM: an {@link Elector} over {@link S3Backend} (S3Mock, directly or through
 * the {@link TcpProxy}), and leader work that appends fenced records to the {@link FencingLog}: each append carries
 * the owner, the lease generation and the monotonic readings around the {@code isLeader()} check that allowed it, and
 * is sent {@code workGapMs} after that check (the work between deciding and acting, where a SIGSTOP can land). A
 * {@code STALE} answer ends the term's work. Events go to stdout as one line each; logs go to stderr.
 *
 * <p>Arguments ({@code name=value}): endpoint, bucket, key, owner, ttlMs, pollMs, logPort, workGapMs (50),
 * appendEveryMs (10), maxRuntimeS, checkLeader (true; false makes this node a negative control whose leader work
 * ignores the end of its term). With {@code jdbcUrl}, {@code jdbcUser}, {@code fenceTable}, {@code writeTable},
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
        String owner = a.get("owner");
        Duration ttl = Duration.ofMillis(Long.parseLong(a.get("ttlMs")));
        Duration poll = Duration.ofMillis(Long.parseLong(a.get("pollMs")));
        long workGap = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(a.getOrDefault("workGapMs", "50")));
        long appendEvery = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(a.getOrDefault("appendEveryMs", "10")));
        // A negative control: leader work that, once started, never asks isLeader() again and ignores refusals.
        boolean checkLeader = Boolean.parseBoolean(a.getOrDefault("checkLeader", "true"));
        long endAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(a.getOrDefault("maxRuntimeS", "1800")));

        S3Backend backend = backend(a, ttl, endAt);
        Elector elector = Elector.builder(backend, a.get("key")).owner(owner).ttl(ttl).pollInterval(poll).build();
        elector.addListener(event -> print(describe(owner, event)));
        elector.start();
        print("STARTED owner=" + owner + " nanos=" + System.nanoTime() + " pid=" + ProcessHandle.current().pid());

        Downstream fencing = a.containsKey("jdbcUrl")
                ? new FencedTableSink(a.get("jdbcUrl"), a.get("jdbcUser"), a.get("fenceTable"), a.get("writeTable"),
                        java.nio.file.Path.of(a.get("refusalLog")), Boolean.parseBoolean(a.get("fenced")))
                : new Fencing(Integer.parseInt(a.get("logPort")));
        while (System.nanoTime() < endAt) {
            Optional<LeaderScope> entered = elector.enterLeaderScope(false);
            if (entered.isEmpty()) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                continue;
            }
            try (LeaderScope scope = entered.get()) {
                long generation = scope.lease().generation();
                print("LEADING owner=" + owner + " gen=" + generation + " nanos=" + System.nanoTime());
                while (System.nanoTime() < endAt) {
                    long before = System.nanoTime();
                    boolean leading = !checkLeader || (elector.isLeader()
                            && elector.currentLease().map(Lease::generation).orElse(-1L) == generation);
                    long after = System.nanoTime();
                    if (!leading) {
                        break;
                    }
                    LockSupport.parkNanos(workGap);
                    String reply = fencing.append(owner, generation, before, after);
                    if (reply.startsWith("STALE")) {
                        print("FENCED owner=" + owner + " gen=" + generation + " nanos=" + System.nanoTime()
                                + " checked=" + before + " reply=" + reply.replace(' ', '_'));
                        if (checkLeader) {
                            break;
                        }
                    } else if (reply.startsWith("ERROR")) {
                        print("SINK_ERROR owner=" + owner + " gen=" + generation + " nanos=" + System.nanoTime()
                                + " reply=" + reply.replace(' ', '_'));
                    }
                    LockSupport.parkNanos(appendEvery);
                }
            }
        }
        elector.close();
        backend.close();
    }

    /** The S3 backend; retried (bounded) while the server is not up yet, for example during its restart. */
    private static S3Backend backend(Map<String, String> a, Duration ttl, long endAt) throws Exception {
        BackendException last = null;
        for (int attempt = 0; attempt < 120 && System.nanoTime() < endAt; attempt++) {
            try {
                return S3Backend.builder()
                        .endpoint(a.get("endpoint")).pathStyle(true).region("us-east-1").credentials("chaos", "chaos")
                        .bucket(a.get("bucket"))
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

    private static synchronized void print(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /**
     * Where leader work appends: answers {@code OK}, {@code STALE <highest token>} (refused by the fence) or
     * {@code ERROR <cause>} (not written, for another reason).
     */
    interface Downstream {
        String append(String owner, long generation, long before, long after) throws IOException;
    }

    /** A connection to the fencing log; reconnects once per append if the connection broke. */
    private static final class Fencing implements Downstream {
        private final int port;
        private Socket socket;
        private BufferedReader in;
        private PrintWriter out;

        Fencing(int port) {
            this.port = port;
        }

        @Override
        public String append(String owner, long generation, long before, long after) throws IOException {
            for (int attempt = 0; ; attempt++) {
                try {
                    if (socket == null) {
                        socket = new Socket();
                        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
                        socket.setSoTimeout(5000);
                        in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                        out = new PrintWriter(new OutputStreamWriter(socket.getOutputStream(), StandardCharsets.UTF_8), true);
                    }
                    out.println("APPEND " + owner + " " + generation + " " + before + " " + after);
                    String reply = in.readLine();
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
