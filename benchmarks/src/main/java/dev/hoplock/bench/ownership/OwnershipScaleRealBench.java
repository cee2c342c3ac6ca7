package dev.hoplock.bench.ownership;

import dev.hoplock.bench.common.Results;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.ownership.Member;
import dev.hoplock.core.ownership.MembershipView;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.core.ownership.Rendezvous;
import dev.hoplock.jdbc.InitializeSchema;
import dev.hoplock.jdbc.JdbcBackend;
import dev.hoplock.s3.S3Backend;
import dev.hoplock.s3.server.S3MockServer;
import org.postgresql.ds.PGSimpleDataSource;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;

/**
 * Ownership at scale (issue 24) with real members on a real store, in real time: N members of one group in this JVM,
 * each with its own store client (its own S3 client, or its own PostgreSQL connections), sharing nothing but the
 * store; the phases of {@link OwnershipScaleBench} (formation, steady state, a join, a graceful leave, a crash), each
 * measured from the event until every live member acts under the new view and every sample key (200) is acted on by
 * its owner, and until every acknowledgement is in the registry. Requests are counted at each member's client.
 *
 * <p>Arguments: {@code s3} (S3Mock 5.2.0, one request thread, started here) or {@code pg} (PostgreSQL at
 * {@code -Dbench.pg.url}, default {@code jdbc:postgresql://127.0.0.1:5432/test}, user {@code postgres}); then the
 * member counts (default 10,100). {@code -Dbench.scale.ttlMs} (default 15000: renew 5 s, poll 1 s),
 * {@code -Dbench.scale.windowSeconds} (steady-state window, default 60). On PostgreSQL every member opens a
 * connection per request (no pool: 100 pools would exceed the server's 100 connections); at most
 * {@code -Dbench.pg.connections} (default 20) are open at once, as a server-side pooler would allow.
 * Writes {@code ownership-scale-<store>.csv} and {@code ownership-scale-<store>.properties}.
 */
public final class OwnershipScaleRealBench {

    private static final Duration PHASE_LIMIT = Duration.ofMinutes(4);
    private static final int SAMPLE_KEYS = 200;
    /** Keys that move at each change (found before it), checked beside the sample: at N = 1,000 a sample of 200
     *  holds no key of the member that joins or leaves. */
    private static final int MOVING_KEYS = 20;

    private final String storeName;
    private final Duration ttl;
    private final int n;
    private final String group = "scale-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<String> ids = new ArrayList<>();
    private final Map<String, OwnershipGroup> members = new LinkedHashMap<>();
    private final Map<String, Counted> clients = new LinkedHashMap<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong registryWrites = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong registryBytesRead = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final Map<String, Object> out = new LinkedHashMap<>();
    private final List<String> sample = new ArrayList<>();
    private List<String> moving = List.of();
    private final StoreFactory factory;

    interface StoreFactory {
        Backend open(String memberId, List<AutoCloseable> closeables) throws Exception;
    }

    private OwnershipScaleRealBench(String storeName, int n, Duration ttl, StoreFactory factory) {
        this.storeName = storeName;
        this.n = n;
        this.ttl = ttl;
        this.factory = factory;
        for (int k = 0; k < SAMPLE_KEYS; k++) {
            sample.add("tenant-" + k);
        }
    }

    /** The PostgreSQL table of this run (dropped at its end). */
    private static final String PG_TABLE = "hoplock_scale_" + UUID.randomUUID().toString().substring(0, 8);

    public static void main(String[] args) throws Exception {
        String store = args.length > 0 ? args[0] : "s3";
        String sizes = args.length > 1 ? args[1] : "10,100";
        Duration ttl = Duration.ofMillis(Long.getLong("bench.scale.ttlMs", 15000));
        StoreFactory factory;
        if (store.equals("s3")) {
            S3MockServer server = S3MockServer.shared();
            String prefix = "bench/scale-" + UUID.randomUUID().toString().substring(0, 8) + "/";
            factory = (id, closeables) -> {
                S3Backend backend = S3Backend.builder().endpoint(server.endpoint()).pathStyle(true)
                        .region("us-east-1").credentials("bench", "bench").bucket(server.bucket()).prefix(prefix)
                        .verifyConditionalWrites(false).build();
                closeables.add(backend);
                return backend;
            };
        } else if (store.equals("pg")) {
            String url = System.getProperty("bench.pg.url", "jdbc:postgresql://127.0.0.1:5432/test");
            String user = System.getProperty("bench.pg.user", "postgres");
            String password = System.getProperty("bench.pg.password", "");
            Semaphore open = new Semaphore(Integer.getInteger("bench.pg.connections", 20), true);
            String table = PG_TABLE;
            boolean[] first = {true};
            factory = (id, closeables) -> {
                PGSimpleDataSource ds = new PGSimpleDataSource();
                ds.setUrl(url);
                ds.setUser(user);
                ds.setPassword(password);
                JdbcBackend backend = JdbcBackend.builder(new Limited(ds, open)).table(table)
                        .initializeSchema(first[0] ? InitializeSchema.ALWAYS : InitializeSchema.NEVER)
                        .verify(first[0]).build();
                first[0] = false;
                return backend;
            };
        } else {
            throw new IllegalArgumentException("store: s3 or pg, not " + store);
        }
        Runnable cleanUp = () -> { };
        if (store.equals("pg")) {
            String url = System.getProperty("bench.pg.url", "jdbc:postgresql://127.0.0.1:5432/test");
            String table = PG_TABLE;
            cleanUp = () -> {
                // The table this run created, on a shared database.
                PGSimpleDataSource ds = new PGSimpleDataSource();
                ds.setUrl(url);
                ds.setUser(System.getProperty("bench.pg.user", "postgres"));
                ds.setPassword(System.getProperty("bench.pg.password", ""));
                try (Connection c = ds.getConnection(); java.sql.Statement st = c.createStatement()) {
                    st.execute("DROP TABLE IF EXISTS " + table);
                } catch (SQLException e) {
                    System.out.println("could not drop " + table + ": " + e.getMessage());
                }
            };
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        List<List<?>> rows = new ArrayList<>();
        summary.put("ttl.ms", ttl.toMillis());
        summary.put("members", sizes);
        for (String size : sizes.split(",")) {
            int n = Integer.parseInt(size.trim());
            OwnershipScaleRealBench bench = new OwnershipScaleRealBench(store, n, ttl, factory);
            Map<String, Object> run;
            try {
                run = bench.run();
            } catch (IllegalStateException e) {
                System.out.println("N=" + n + " on " + store + ": " + e.getMessage());
                run = new LinkedHashMap<>(bench.out);
                run.put("failed", e.getMessage());
            } finally {
                bench.closeAll();
            }
            run.forEach((k, v) -> {
                summary.put(n + "." + k, v);
                rows.add(List.of(n, k, v));
            });
            Results.writeCsv("ownership-scale-" + store + ".csv", List.of("members", "measure", "value"), rows);
            Results.writeSummary("ownership-scale-" + store + ".properties", summary);
        }
        cleanUp.run();
        System.exit(0);
    }

    private Map<String, Object> run() throws Exception {
        long heapBefore = heapAfterGc();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            add(String.format(Locale.ROOT, "member-%04d", i));
        }
        double formed = await(this::agreeAndOwned, "formation", t0);
        out.put("formation.s", round(formed));
        await(this::allAcknowledged, "formation acknowledgements", t0);
        System.out.printf(Locale.ROOT, "N=%d on %s: formed in %.1f s, %d registry writes, %d refused%n", n, storeName,
                formed, registryWrites.get(), refused.get());
        out.put("memory.perMember.bytes", (heapAfterGc() - heapBefore) / n);

        long windowSeconds = Long.getLong("bench.scale.windowSeconds", 60);
        reset();
        Thread.sleep(TimeUnit.SECONDS.toMillis(windowSeconds));   // a counting window, not a synchronisation
        long renewals = Math.round(windowSeconds * 1000.0 / (ttl.toMillis() / 3.0));
        out.put("steady.windowSeconds", windowSeconds);
        out.put("steady.requests", requests.get());
        out.put("steady.model", 3L * n * renewals);
        out.put("steady.requestsPerMemberPerRenew", round(requests.get() / (double) n / renewals));
        out.put("steady.refused", refused.get());
        out.put("steady.failures", failures.get());
        out.put("registry.bytes", registrySize());
        System.out.printf(Locale.ROOT, "N=%d on %s steady: %d requests in %d s (model %d: 3 per member per renew"
                + " interval), %d refused, %d failed; registry %d bytes%n", n, storeName, requests.get(),
                windowSeconds, 3L * n * renewals, refused.get(), failures.get(), registrySize());

        phase("join", () -> add("member-join"), List.of(), "member-join");
        String leaver = ids.get(n / 2);
        phase("leave", () -> member(leaver).closeAsync(), List.of(leaver), null);
        String crashed = ids.get(n / 3);
        phase("crash", () -> Objects.requireNonNull(clients.get(crashed)).sever(), List.of(crashed), null);
        return out;
    }

    private interface Change {
        void run() throws Exception;
    }

    private void phase(String name, Change change, List<String> departing,
                       @org.jspecify.annotations.Nullable String joining) throws Exception {
        moving = Moving.find(ids, departing, joining, MOVING_KEYS);
        reset();
        long t0 = System.nanoTime();
        change.run();
        ids.removeAll(departing);
        double views = await(this::agree, name + ": views agree", t0);
        double keys = await(this::agreeAndOwned, name + ": keys owned", t0);
        long refusedAtKeys = refused.get();
        double acked = await(this::allAcknowledged, name + ": all acknowledged", t0);
        out.put(name + ".views.s", round(views));
        out.put(name + ".keys.s", round(keys));
        out.put(name + ".acked.s", round(acked));
        out.put(name + ".registryWrites", registryWrites.get());
        out.put(name + ".refused", refused.get());
        out.put(name + ".refusedUntilKeys", refusedAtKeys);
        out.put(name + ".requests", requests.get());
        out.put(name + ".failures", failures.get());
        System.out.printf(Locale.ROOT, "N=%d on %s %s: views agree after %.1f s, keys owned after %.1f s, all acked"
                + " after %.1f s; %d registry writes, %d refused (%d until the keys were owned), %d requests, %d"
                + " failed%n", n, storeName, name, views, keys, acked, registryWrites.get(), refused.get(),
                refusedAtKeys, requests.get(), failures.get());
    }

    private void add(String id) throws Exception {
        Counted client = new Counted(factory.open(id, closeables), id);
        OwnershipGroup member = OwnershipGroup.builder(client, group).memberId(id).owner("p-" + id).ttl(ttl)
                .releaseTimeout(Duration.ofSeconds(2)).build();
        ids.add(id);
        members.put(id, member);
        clients.put(id, client);
        member.start();
    }

    private OwnershipGroup member(String id) {
        return Objects.requireNonNull(members.get(id), id);
    }

    private boolean agree() {
        long epoch = -1;
        for (String id : ids) {
            OwnershipGroup g = member(id);
            if (!g.isMember()) {
                return false;
            }
            long e = g.epoch().orElse(-1);
            if (epoch == -1) {
                epoch = e;
            } else if (e != epoch) {
                return false;
            }
        }
        try {
            List<Member> view = member(ids.get(0)).members().members();
            Set<String> live = new HashSet<>(ids);
            return view.size() == ids.size() && view.stream().allMatch(m -> live.contains(m.id()));
        } catch (RuntimeException e) {
            return false;
        }
    }

    private boolean agreeAndOwned() {
        if (!agree()) {
            return false;
        }
        MembershipView view = MembershipView.of(0, ids.stream().map(Member::of).toList());
        for (List<String> keys : List.of(moving, sample)) {
            for (String key : keys) {
                if (!member(Rendezvous.owner(key, view).orElseThrow().id()).isOwner(key)) {
                    return false;
                }
            }
        }
        return true;
    }

    private boolean allAcknowledged() {
        Optional<StoredObject> object = readRegistry();
        if (object.isEmpty()) {
            return false;
        }
        long epoch = -1;
        int entries = 0;
        for (String line : new String(object.get().content(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith("epoch ")) {
                epoch = Long.parseLong(line.substring(6));
            } else if (line.startsWith("member ")) {
                entries++;
                if (Long.parseLong(line.split(" ")[1]) < epoch) {
                    return false;
                }
            }
        }
        return entries == ids.size() && agree();
    }

    private Optional<StoredObject> readRegistry() {
        try {
            return Objects.requireNonNull(clients.get(ids.get(0))).inner.read(group + "/registry",
                    Duration.ofSeconds(5));
        } catch (BackendException e) {
            return Optional.empty();
        }
    }

    private int registrySize() {
        return readRegistry().map(StoredObject::size).orElse(0);
    }

    /** Polls every 20 ms until {@code condition}; the seconds from {@code t0} until it first held. */
    private double await(BooleanSupplier condition, String what, long t0) {
        long limit = System.nanoTime() + PHASE_LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > limit) {
                throw new IllegalStateException("not reached within " + PHASE_LIMIT + ": " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    private void reset() {
        requests.set(0);
        registryWrites.set(0);
        refused.set(0);
        registryBytesRead.set(0);
        failures.set(0);
    }

    private void closeAll() {
        for (OwnershipGroup g : members.values()) {
            g.closeAsync();
        }
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(3));
        for (AutoCloseable c : closeables) {
            try {
                c.close();
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** One member's client, counted; severable (a crash: every request fails from then on). */
    private final class Counted implements Backend {
        final Backend inner;
        private final String id;
        private volatile boolean severed;

        Counted(Backend inner, String id) {
            this.inner = inner;
            this.id = id;
        }

        void sever() {
            severed = true;
        }

        private void check() throws BackendException {
            if (severed) {
                throw new BackendException(BackendException.Kind.UNREACHABLE, "severed (crash of " + id + ")");
            }
        }

        @Override
        public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
            check();
            requests.incrementAndGet();
            try {
                Optional<StoredObject> answer = inner.read(key, timeout);
                if (key.endsWith("/registry")) {
                    answer.ifPresent(o -> registryBytesRead.addAndGet(o.size()));
                }
                return answer;
            } catch (BackendException e) {
                failures.incrementAndGet();
                throw e;
            }
        }

        @Override
        public WriteResult write(String key, Handle expected, byte[] content, Duration timeout)
                throws BackendException {
            check();
            requests.incrementAndGet();
            try {
                WriteResult result = inner.write(key, expected, content, timeout);
                if (key.endsWith("/registry")) {
                    registryWrites.incrementAndGet();
                    if (!(result instanceof WriteResult.Written)) {
                        refused.incrementAndGet();
                    }
                }
                return result;
            } catch (BackendException e) {
                failures.incrementAndGet();
                throw e;
            }
        }

        @Override
        public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
            check();
            requests.incrementAndGet();
            return inner.delete(key, expected, timeout);
        }

        @Override
        public String describe() {
            return "counted " + inner.describe();
        }
    }

    /** A DataSource that opens at most {@code open}'s permits connections at once (a server-side pooler's limit). */
    private static final class Limited implements DataSource {
        private final DataSource target;
        private final Semaphore open;

        Limited(DataSource target, Semaphore open) {
            this.target = target;
            this.open = open;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return limited(target::getConnection);
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return limited(() -> target.getConnection(username, password));
        }

        private interface Opener {
            Connection open() throws SQLException;
        }

        private Connection limited(Opener opener) throws SQLException {
            try {
                if (!open.tryAcquire(10, TimeUnit.SECONDS)) {
                    throw new SQLException("no connection permit within 10 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted", e);
            }
            Connection connection;
            try {
                connection = opener.open();
            } catch (SQLException | RuntimeException e) {
                open.release();
                throw e;
            }
            boolean[] released = {false};
            return (Connection) java.lang.reflect.Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (method.getName().equals("close")) {
                            synchronized (released) {
                                if (!released[0]) {
                                    released[0] = true;
                                    open.release();
                                }
                            }
                        }
                        try {
                            return method.invoke(connection, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }

        @Override
        public PrintWriter getLogWriter() throws SQLException {
            return target.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            target.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            target.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return target.getLoginTimeout();
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            return target.getParentLogger();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            return target.unwrap(iface);
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) throws SQLException {
            return target.isWrapperFor(iface);
        }
    }
}
