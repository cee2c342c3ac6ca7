package dev.hoplock.bench.report;

import java.util.Properties;

/**
 * One section of the report: writes its lines to the page and reads the result files. Every section states the same
 * way what ran (the stage's command line, status, time and CPU) and what was not measured (the stage's recorded
 * reason, also listed in the "Not measured" section), so that a stage without results is reported, never filled in.
 */
abstract class Section {

    final MarkdownPage page;
    final ResultFiles results;
    final Properties stages;

    Section(MarkdownPage page, ResultFiles results) {
        this.page = page;
        this.results = results;
        this.stages = results.stages();
    }

    final void line(String text) {
        page.line(text);
    }

    final void command(String stage) {
        command(stage, "");
    }

    final void command(String stage, String label) {
        String status = stages.getProperty(stage + ".status");
        line(label + "Command: `STAGES=" + stage.replaceAll("-.*", "") + " benchmarks/run.sh`, which runs `"
                + stages.getProperty(stage + ".command", "(not run)") + "`" + (status == null ? ""
                : " (status: " + status + ", " + stages.getProperty(stage + ".finished", "?")
                + (stages.getProperty(stage + ".cpu") == null ? "" : ", on " + stages.getProperty(stage + ".cpu"))
                + ")") + ".");
        line("");
    }

    final void missing(String stage, String what) {
        String reason = stages.getProperty(stage + ".status", "not run");
        String text = "Not measured in this run: " + what + " (stage `" + stage + "`: " + reason + "; see `"
                + "benchmarks/target/bench-logs/" + stage + ".log`).";
        line(text);
        line("");
        page.notMeasured(text);
    }
}
