package dev.hoplock.bench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The report is a function of the result files: rebuilt from the committed results, it is the committed
 * {@code docs/BENCHMARKS.md} byte for byte, and without any result it still has every section, each saying what was
 * not measured.
 */
class ReportTest {

    /** The module's directory (Maven runs the tests there). */
    private static final Path MODULE = Paths.get("").toAbsolutePath();

    private static final List<String> SECTIONS = List.of(
            "## Summary",
            "## Machine",
            "## 1. Failover after a crash, and graceful handover",
            "## 2. Gate cost of `@LeaderOnly` (JMH), against the framework's floor",
            "## 3. Store requests per gated execution and per hour; added latency per execution",
            "## 4. Start-up time added by the starter",
            "## 5. One store, one database, two designs: hoplock's JDBC store and ShedLock's JDBC provider",
            "## 6. hoplock's Elasticsearch / OpenSearch store",
            "## 7. Rolling restart: handover gaps of three Spring Boot instances",
            "## 8. Per-key ownership: spread, churn, hand-over time, store requests, check cost",
            "## 9. Named locks: `@WithLock` next to `@LeaderOnly` and ShedLock, store requests per execution",
            "## 10. Redis, NATS, Azure Blob and DynamoDB stores",
            "## Not measured, and limits",
            "## Settings of this run");

    @Test
    void rebuiltFromTheCommittedResultsIsTheCommittedReport(@TempDir Path docs) throws Exception {
        Report.write(MODULE.resolve("results"), docs);

        String rebuilt = Files.readString(docs.resolve("BENCHMARKS.md"), StandardCharsets.UTF_8);
        assertThat(headings(rebuilt)).containsSubsequence(SECTIONS);
        assertThat(rebuilt)
                .as("docs/BENCHMARKS.md is what Report writes from benchmarks/results/: rebuild it with"
                        + " `STAGES=report benchmarks/run.sh` after changing the report's code")
                .isEqualTo(Files.readString(MODULE.resolve("../docs/BENCHMARKS.md"), StandardCharsets.UTF_8));
        assertThat(docs.resolve("failover.png")).isNotEmptyFile();
    }

    @Test
    void withoutResultsEverySectionIsThereAndSaysWhatWasNotMeasured(@TempDir Path root) throws Exception {
        Path results = Files.createDirectory(root.resolve("results"));
        Path docs = Files.createDirectory(root.resolve("docs"));

        Report.write(results, docs);

        String report = Files.readString(docs.resolve("BENCHMARKS.md"), StandardCharsets.UTF_8);
        assertThat(headings(report)).containsSubsequence(SECTIONS);
        assertThat(report).contains("Not measured in this run: failover and graceful handover (stage `failover`: not run;");
        assertThat(report).contains("Not measured in this run: the Redis store's failover and request figures (stage"
                + " `stores-redis`: not run;");
        assertThat(docs.resolve("failover.png")).doesNotExist();
    }

    private static List<String> headings(String markdown) {
        return markdown.lines().filter(line -> line.startsWith("## ")).toList();
    }
}
