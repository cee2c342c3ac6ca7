package dev.hoplock.bench.report;

import static dev.hoplock.bench.report.Fmt.m;

/**
 * The machine of the latest run of {@code run.sh}, as {@code machine.properties} recorded it ("-" for what it did
 * not), and what the stores ran on.
 */
final class MachineSection extends Section {

    MachineSection(MarkdownPage page, ResultFiles results) {
        super(page, results);
    }

    void write() {
        line("## Machine");
        line("");
        line("The machine of the latest run of `run.sh`. Stages ran at the times their command lines show, each on a"
                + " machine of this kind (2 cores, the same Java and Maven), not necessarily this one: a stage that"
                + " recorded its CPU names it beside its command (from 2026-12-01T05:07Z on); for the earlier stages"
                + " the CPU model was not recorded.");
        line("");
        line("| | |");
        line("|---|---|");
        line("| `nproc` | " + m("nproc") + " |");
        line("| memory (`/proc/meminfo` MemTotal) | " + m("mem_total") + " |");
        line("| CPU | " + m("cpu_model") + " |");
        line("| kernel | " + m("kernel") + " |");
        line("| `java -version` | " + m("java_version").replace("\n", "<br>") + " |");
        line("| Maven | " + m("mvn_version") + " |");
        line("| hoplock measured | the snapshot jars " + ("reactor".equals(results.machine().getProperty("hoplock_build"))
                ? "built from the checkout (`BUILD=reactor`)" : "installed in `~/.m2`") + " (copied to"
                + " `benchmarks/target/pinned/` for the run): " + m("hoplock_jars") + " |");
        line("| S3 server | Adobe S3Mock 5.2.0 (`com.adobe.testing:s3mock:5.2.0:exec`), separate JVM on 127.0.0.1, one"
                + " request thread (`dev.hoplock.s3.server.S3MockServer`, as the tests use it) |");
        line("| OpenSearch | 2.19.6 (`org.opensearch:opensearch` from Maven Central), one node inside the benchmark's own"
                + " JVM on 127.0.0.1 (`dev.hoplock.elasticsearch.node.OpenSearchNode`, as the tests use it; section 6"
                + " only) |");
        line("| PostgreSQL | " + m("pg_version") + " on 127.0.0.1:5432, database `test`; synchronous_commit="
                + m("pg_synchronous_commit") + ", fsync=" + m("pg_fsync") + " |");
        line("");
        line("Both stores run on the same 2 cores as the code under test; every request goes over loopback. The"
                + " figures are therefore local-store figures: on AWS S3 or a remote database each request adds its"
                + " network round trip, and counts (requests per execution, per hour) carry over unchanged.");
        line("");
    }

    private String m(String key) {
        return Fmt.m(results.machine(), key);
    }
}
