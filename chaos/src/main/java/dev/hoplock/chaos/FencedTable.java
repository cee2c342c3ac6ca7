package dev.hoplock.chaos;

import dev.hoplock.chaos.FencingLog.Attempt;
import dev.hoplock.jdbc.Database;
import dev.hoplock.jdbc.JdbcSchema;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The downstream store of the fenced database run, seen from the orchestrator: a fence table and a write table created
 * for this run on PostgreSQL or MariaDB (the nodes write through {@link FencedTableSink}), the rows read back, and the
 * nodes' refusal logs. Every row and refusal names its resource (the elector's one, {@code lock/<name>} or
 * {@code key/<key>}); {@link #verify()} judges each resource on its own and counts, from those two sources only:
 * <ul>
 *   <li><b>stale writes accepted</b>: committed rows whose token is lower than the token of a row on the same resource
 *       committed before them. Commit order is the order of the rows' ids: every write transaction takes the fence row's lock in its
 *       check and holds it until it ends, and takes its id (sequence / AUTO_INCREMENT) under that lock, so of two
 *       committed writes the one with the lower id committed first;</li>
 *   <li><b>legitimate writes refused</b>: refusals for which no row with the token the refusal reported as current
 *       (higher than the refused one) had been written before the refusal ({@code written_nanos} below the
 *       refusal's time; both are readings of one monotonic clock of this machine). A refusal with such a witness was
 *       refused because a higher token had committed before it, i.e. it was stale at its commit attempt. The fence
 *       also refuses an equal token recorded by another holder; such a refusal's witness is a row with that token by
 *       another owner;</li>
 *   <li><b>tokens that did not rise at a change of holder</b>: a committed row on a resource whose owner differs from
 *       that of the row committed just before it on that resource, with a token not above that row's.</li>
 * </ul>
 * The tables are exported to CSV in the output directory and dropped at {@link #close()}.
 */
final class FencedTable implements WriteHistory, AutoCloseable {

    /** The result of {@link #verify()}; {@code problems} lists each offending write. */
    record Verdict(int committed, int refused, int staleAccepted, int tokenNotRisen, int legitimateRefused,
                   List<String> problems) {
    }

    private final Database database;
    private final String url;
    private final String user;
    private final Path out;
    private final String fenceTable;
    private final String writeTable;
    private final String serverVersion;

    FencedTable(String sink, Path out) throws SQLException {
        this.database = switch (sink) {
            case "postgresql" -> Database.POSTGRESQL;
            case "mariadb" -> Database.MARIADB;
            default -> throw new IllegalArgumentException("sink must be log, postgresql or mariadb, was " + sink);
        };
        this.url = database == Database.POSTGRESQL ? "jdbc:postgresql://127.0.0.1:5432/test"
                : "jdbc:mariadb://127.0.0.1:3306/test";
        this.user = database == Database.POSTGRESQL ? "postgres" : "root";
        this.out = out;
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        this.fenceTable = "chaos_fence_" + suffix;
        this.writeTable = "chaos_write_" + suffix;
        try (Connection connection = connect(); Statement ddl = connection.createStatement()) {
            DatabaseMetaData meta = connection.getMetaData();
            serverVersion = meta.getDatabaseProductName() + " " + meta.getDatabaseProductVersion();
            ddl.execute(JdbcSchema.fenceTableDdl(database, fenceTable));
            ddl.execute("CREATE TABLE " + writeTable + " (id " + (database == Database.POSTGRESQL
                    ? "BIGSERIAL" : "BIGINT AUTO_INCREMENT") + " PRIMARY KEY, resource VARCHAR(128) NOT NULL,"
                    + " owner VARCHAR(64) NOT NULL,"
                    + " token BIGINT NOT NULL, check_before_nanos BIGINT NOT NULL, check_after_nanos BIGINT NOT NULL,"
                    + " written_nanos BIGINT NOT NULL)");
        }
    }

    String describe() {
        return serverVersion + " at " + url + " (fence table " + fenceTable + ", write table " + writeTable + ")";
    }

    /** The arguments that make a {@link ChaosNode} write here. */
    List<String> nodeArguments(String owner, boolean fenced) {
        return List.of("jdbcUrl=" + url, "jdbcUser=" + user, "fenceTable=" + fenceTable, "writeTable=" + writeTable,
                "refusalLog=" + refusalLog(owner), "fenced=" + fenced);
    }

    private Path refusalLog(String owner) {
        return out.resolve(owner + ".refusals.csv").toAbsolutePath();
    }

    @Override
    public List<Attempt> attempts() throws SQLException, IOException {
        List<Attempt> attempts = new ArrayList<>();
        for (Row row : rows()) {
            attempts.add(new Attempt(row.resource, row.owner, row.token, row.before, row.after, row.written, true));
        }
        for (Refusal refusal : refusals()) {
            attempts.add(new Attempt(refusal.resource, refusal.owner, refusal.token, refusal.before, refusal.after,
                    refusal.nanos, false));
        }
        return attempts;
    }

    @Override
    public long firstAcceptedAfter(long sinceNanos) throws SQLException {
        try (Connection connection = connect(); PreparedStatement query = connection.prepareStatement(
                "SELECT MIN(written_nanos) FROM " + writeTable + " WHERE written_nanos > ?")) {
            query.setLong(1, sinceNanos);
            try (ResultSet result = query.executeQuery()) {
                result.next();
                long first = result.getLong(1);
                return result.wasNull() ? -1 : first;
            }
        }
    }

    Verdict verify() throws SQLException, IOException {
        List<Row> rows = rows();
        List<Refusal> refusals = refusals();
        List<String> problems = new ArrayList<>();
        int staleAccepted = 0;
        int notRisen = 0;
        Map<String, Row> highestRow = new HashMap<>();
        Map<String, Row> previousRow = new HashMap<>();
        for (Row row : rows) {
            Row highest = highestRow.get(row.resource);
            if (highest != null && row.token < highest.token) {
                staleAccepted++;
                problems.add("STALE WRITE ACCEPTED on " + row.resource + ": row " + row.id + " by " + row.owner
                        + " with token " + row.token + " committed after row " + highest.id + " with token "
                        + highest.token);
            }
            Row previous = previousRow.put(row.resource, row);
            if (previous != null && !previous.owner.equals(row.owner) && row.token <= previous.token) {
                notRisen++;
                problems.add("TOKEN DID NOT RISE AT A CHANGE OF HOLDER on " + row.resource + ": row " + row.id
                        + " by " + row.owner + " with token " + row.token + " committed after row " + previous.id
                        + " by " + previous.owner + " with token " + previous.token);
            }
            if (highest == null || row.token > highest.token) {
                highestRow.put(row.resource, row);
            }
        }
        int legitimateRefused = 0;
        for (Refusal refusal : refusals) {
            // A witness: a row on the same resource, written before the refusal, with the token the fence reported
            // as current: a higher one, or an equal one of another holder (the fence refuses that too).
            boolean witnessed = refusal.current >= refusal.token && rows.stream()
                    .anyMatch(r -> r.resource.equals(refusal.resource) && r.token == refusal.current
                            && r.written < refusal.nanos
                            && (refusal.current > refusal.token || !r.owner.equals(refusal.owner)));
            if (!witnessed) {
                legitimateRefused++;
                problems.add("LEGITIMATE WRITE REFUSED on " + refusal.resource + ": " + refusal.owner + " token "
                        + refusal.token + " refused (reported current token " + refusal.current + ") with no higher"
                        + " token (nor the same token of another holder) written before it");
            }
        }
        return new Verdict(rows.size(), refusals.size(), staleAccepted, notRisen, legitimateRefused, problems);
    }

    private record Row(long id, String resource, String owner, long token, long before, long after, long written) {
    }

    private record Refusal(long nanos, String owner, long token, long current, long before, long after,
                           String resource) {
    }

    /** The committed rows in commit order (by id). */
    private List<Row> rows() throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (Connection connection = connect(); Statement query = connection.createStatement();
             ResultSet result = query.executeQuery("SELECT id, resource, owner, token, check_before_nanos,"
                     + " check_after_nanos, written_nanos FROM " + writeTable + " ORDER BY id")) {
            while (result.next()) {
                rows.add(new Row(result.getLong(1), result.getString(2), result.getString(3), result.getLong(4),
                        result.getLong(5), result.getLong(6), result.getLong(7)));
            }
        }
        return rows;
    }

    /** Every node's refusal log (nodes of every incarnation). */
    private List<Refusal> refusals() throws IOException {
        List<Refusal> refusals = new ArrayList<>();
        try (Stream<Path> files = Files.list(out)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".refusals.csv")).sorted().toList()) {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    String[] f = line.split(",");
                    if (f.length == 7) {
                        refusals.add(new Refusal(Long.parseLong(f[0]), f[1], Long.parseLong(f[2]),
                                Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]), f[6]));
                    }
                }
            }
        }
        return refusals;
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, "");
    }

    /** Exports the write table to {@code fenced-writes.csv} and drops both tables. */
    @Override
    public void close() throws SQLException, IOException {
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(out.resolve("fenced-writes.csv"),
                StandardCharsets.UTF_8))) {
            csv.println("id,resource,owner,token,check_before_nanos,check_after_nanos,written_nanos");
            for (Row row : rows()) {
                csv.println(row.id + "," + row.resource + "," + row.owner + "," + row.token + "," + row.before + "," + row.after + ","
                        + row.written);
            }
        }
        try (Connection connection = connect(); Statement drop = connection.createStatement()) {
            drop.execute("DROP TABLE IF EXISTS " + writeTable);
            drop.execute("DROP TABLE IF EXISTS " + fenceTable);
        }
    }
}
