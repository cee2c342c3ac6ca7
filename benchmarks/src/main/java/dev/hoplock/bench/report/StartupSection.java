package dev.hoplock.bench.report;

import java.util.Properties;
import org.jspecify.annotations.Nullable;

import static dev.hoplock.bench.report.Fmt.d;
import static dev.hoplock.bench.report.Fmt.f2;
import static dev.hoplock.bench.report.Fmt.m;
import static dev.hoplock.bench.report.Fmt.range;
import static dev.hoplock.bench.report.Fmt.signed;

/**
 * Section 4: the start-up time the starter adds to a minimal Spring Boot application, median and range of each
 * measure with and without it.
 */
final class StartupSection extends Section {

    StartupSection(MarkdownPage page, ResultFiles results) {
        super(page, results);
    }

    void write(@Nullable Properties startup) {
        line("## 4. Start-up time added by the starter");
        line("");
        command("startup");
        if (startup == null) {
            missing("startup", "the start-up time");
            return;
        }
        line("`MinimalApp`: a Spring Boot application with no beans of its own and no web server, started in a fresh JVM"
                + " (default flags) with two class paths resolved by Maven from `benchmarks/startup/pom.xml`: the"
                + " minimal one (`spring-boot-starter`, " + m(startup, "without_starter_jars") + " jars) and the same"
                + " plus `dev.hoplock:hoplock-spring-boot-starter` (" + m(startup, "with_starter_jars") + " jars), with"
                + " `hoplock.backend=filesystem` (read only when the starter is there; its elector starts during the"
                + " context start). " + m(startup, "reps") + " runs each, alternating which goes first, after one"
                + " uncounted run of each.");
        line("");
        line("| median (min to max) | without the starter | with the starter | added |");
        line("|---|---|---|---|");
        for (String[] measure : new String[][] {{"run", "`SpringApplication.run` (context start)"},
                {"uptime", "JVM uptime when the context is ready"}, {"wall", "process start to exit (seen by the parent)"}}) {
            String key = measure[0];
            line("| " + measure[1] + " | " + range(startup, "without_starter_" + key) + " | "
                    + range(startup, "with_starter_" + key) + " | " + signed(d(startup, "added_" + key + "_ms")) + " ms (x"
                    + f2(d(startup, "added_" + key + "_ratio")) + ") |");
        }
        line("| bean definitions | " + m(startup, "without_starter_beans") + " | " + m(startup, "with_starter_beans")
                + " | |");
        line("");
        line("What the starter adds: the auto-configurations (properties binding, the election and its elector, the"
                + " `@LeaderOnly` advisor and an auto-proxy creator, the filesystem store), AspectJ's weaver jar through"
                + " `spring-boot-starter-aspectj`, and hoplock-core. Raw data: `benchmarks/results/startup.csv`.");
        line("");
    }
}
