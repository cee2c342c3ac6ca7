package dev.hoplock.bench.report;

import java.util.ArrayList;
import java.util.List;

import static dev.hoplock.bench.report.Fmt.m;

/**
 * "Settings of this run": each environment variable of {@code run.sh} with its default and the value the latest run of
 * its stage used, then each stage's duration and load average.
 */
final class SettingsSection extends Section {

    SettingsSection(MarkdownPage page, ResultFiles results) {
        super(page, results);
    }

    void write() {
        line("## Settings of this run");
        line("");
        line("Environment variables of `benchmarks/run.sh`, their defaults, and the values the latest run of each stage"
                + " used:");
        line("");
        line("| variable | default | used |");
        line("|---|---|---|");
        String[][] defaults = {{"FAILOVER_REPS", "30", "crash repetitions"}, {"HANDOVER_REPS", "30",
                "graceful handover repetitions"}, {"FAILOVER_TTL_MS", "2000", "TTL of the failover runs"},
                {"JMH_FORKS", "4", ""}, {"JMH_WARMUP", "5", "warm-up iterations per fork"},
                {"JMH_ITERATIONS", "5", "measured iterations per fork"}, {"JMH_TIME", "1s", "per iteration"},
                {"REQUESTS_SECONDS", "60", "counting window per library"}, {"REQUESTS_WARMUP", "5", "seconds"},
                {"REQUESTS_TTL", "30s", "hoplock's TTL in the requests stage"},
                {"JDBC_SECONDS", "60", "counting window of the jdbc stage, per library"},
                {"JDBC_WARMUP", "5", "seconds"}, {"JDBC_TTL", "30s", "hoplock's TTL in the jdbc stage"},
                {"ES_SECONDS", "60", "counting window of the es stage"}, {"ES_WARMUP", "5", "seconds"},
                {"ES_TTL", "30s", "hoplock's TTL in the es stage"},
                {"STARTUP_REPS", "10", "JVM starts per variant"},
                {"ROLLING_ROUNDS", "10", "rolling restarts of all three instances"},
                {"ROLLING_TTL_MS", "2000", "TTL of the rolling stage"},
                {"ROLLING_WARMUP_MS", "1000", "warm-up of each instance, started but not ready"},
                {"OWNERSHIP_REPS", "5", "departures per mode in the ownership hand-over bench"},
                {"OWNERSHIP_TTL_MS", "3000", "TTL of the ownership hand-over bench"},
                {"OWNERSHIP_SCALE_MEMBERS", "10,100,1000", "group sizes of the ownership scale bench, virtual time"},
                {"OWNERSHIP_SCALE_REAL_MEMBERS", "10,100", "group sizes of the ownership scale bench on S3Mock and"
                        + " PostgreSQL"},
                {"OWNERSHIP_SCALE_S3_TTL_MS", "30000", "TTL of the ownership scale bench on S3Mock"},
                {"OWNERSHIP_SCALE_PG_TTL_MS", "15000", "TTL of the ownership scale bench on PostgreSQL"},
                {"STORES_REPS", "30", "SIGKILLs, and as many SIGTERMs, per store in the stores stage"},
                {"STORES_SECONDS", "60", "counting window of the stores stage, per store"},
                {"STAGES", "failover jmh requests jdbc es startup rolling ownership stores", "which stages run"}};
        for (String[] row : defaults) {
            line("| `" + row[0] + "`" + (row[2].isEmpty() ? "" : " (" + row[2] + ")") + " | " + row[1] + " | "
                    + (row[0].equals("STAGES") ? "-" : m(stages, "env." + row[0])) + " |");
        }
        line("");
        line("Stage durations, with the 1-minute load average of the machine at the start and the end of each"
                + " (2 cores; other work on the machine shows up here): " + stageTimes() + ".");
        line("");
    }

    private String stageTimes() {
        List<String> parts = new ArrayList<>();
        for (String stage : List.of("build", "failover", "jmh", "requests-hoplock", "requests-shedlock", "jdbc-hoplock",
                "jdbc-shedlock", "jdbc-hoplock-lock", "es-hoplock", "es-failover", "startup", "rolling",
                "ownership-spread", "ownership-requests", "ownership-handover", "ownership-jmh", "ownership-scale",
                "ownership-scale-s3", "ownership-scale-pg", "stores-redis", "stores-nats",
                "stores-azure-blob", "stores-dynamodb")) {
            String seconds = stages.getProperty(stage + ".seconds");
            if (seconds != null) {
                String load = stages.getProperty(stage + ".load");
                parts.add(stage + " " + seconds + " s" + (load == null ? "" : " (load average " + load + ")"));
            }
        }
        return parts.isEmpty() ? "-" : String.join(", ", parts);
    }
}
