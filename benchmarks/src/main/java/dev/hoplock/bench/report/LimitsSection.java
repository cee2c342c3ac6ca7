package dev.hoplock.bench.report;

/**
 * "Not measured, and limits": every stage the other sections reported as not measured, then the limits of the
 * comparison that hold in every run.
 */
final class LimitsSection extends Section {

    LimitsSection(MarkdownPage page, ResultFiles results) {
        super(page, results);
    }

    void write() {
        line("## Not measured, and limits");
        line("");
        for (String item : page.notMeasured()) {
            line("- " + item);
        }
        line("- ShedLock's failover is not measured: it has no leader. A node that dies between runs holds nothing;"
                + " one that dies inside a run blocks the job until `lockAtMostFor` (10 s here) ends. hoplock's failover"
                + " figure has no ShedLock counterpart to divide by; it is compared with its physical bound instead.");
        line("- ShedLock's S3 provider is not on Maven Central, so ShedLock runs over PostgreSQL and hoplock over S3:"
                + " the counts compare what each user pays per job, not two implementations on one store.");
        line("- Both stores are local (loopback, same 2 cores). Latencies on a real network add one round trip per"
                + " request; ShedLock pays two per execution on the leader and one per skipped call, hoplock none per"
                + " call.");
        line("- One run of each stage; the spread given is over repetitions (failover, start-up), JMH iterations and"
                + " forks (gate), and runs or slices within the window (requests).");
        line("");
    }
}
