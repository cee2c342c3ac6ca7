package dev.hoplock.cli;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.operations.LeaseInspection;
import dev.hoplock.core.operations.LeaseRecordView;
import dev.hoplock.core.operations.ReleaseReport;
import dev.hoplock.core.operations.StuckLeaseRelease;
import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.core.time.TimeSource;
import dev.hoplock.spring.HoplockConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeansException;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code hoplock-cli} entry point: {@code show <key>} and {@code release <key>} over the store the starter's
 * {@code hoplock.*} settings choose (usage: {@link CliArguments#USAGE}; exit codes: {@link ExitCode}).
 *
 * <p>Guarantees: {@code show} only reads; {@code release} writes at most the released record, and only as
 * {@link StuckLeaseRelease} allows (a version observed unchanged for the TTL, conditional on it); nothing deletes. It
 * never campaigns, joins an ownership group or takes a named lock. Messages name the key and the store's description,
 * never a credential.
 */
public final class HoplockCli {

    private HoplockCli() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command; returns its {@link ExitCode}. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        CliArguments arguments;
        try {
            arguments = CliArguments.parse(args);
        } catch (CliArguments.UsageException e) {
            err.println("hoplock-cli: " + e.getMessage());
            err.println(CliArguments.USAGE);
            return ExitCode.USAGE;
        }
        SpringApplication application = new SpringApplication(CliConfiguration.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setBannerMode(Banner.Mode.OFF);
        application.setLogStartupInfo(false);
        application.setRegisterShutdownHook(false);
        Map<String, Object> defaults = new LinkedHashMap<>();
        defaults.put("spring.main.lazy-initialization", "true");
        defaults.put("logging.level.root", "WARN");
        application.setDefaultProperties(defaults);
        ConfigurableApplicationContext context;
        try {
            context = application.run(arguments.springArgs().toArray(String[]::new));
        } catch (RuntimeException e) {
            err.println("hoplock-cli: the store could not be built from the hoplock.* settings: " + rootMessage(e));
            return ExitCode.CONFIGURATION;
        }
        try (context) {
            Backend backend;
            try {
                backend = context.getBean(Backend.class);
            } catch (BeansException e) {
                err.println("hoplock-cli: the store could not be built from the hoplock.* settings: "
                        + rootMessage(e));
                return ExitCode.CONFIGURATION;
            }
            Binder binder = Binder.get(context.getEnvironment());
            KeyTtl ttl = arguments.ttl() != null ? new KeyTtl(arguments.ttl(), "--ttl")
                    : KeyTtl.forKey(binder, arguments.key());
            Duration timeout = binder.bind("hoplock.request-timeout", Duration.class).orElse(Duration.ofSeconds(5));
            return arguments.command().equals("show")
                    ? show(backend, arguments.key(), ttl.ttl(), timeout, out, err)
                    : release(backend, arguments, ttl, timeout, out, err);
        }
    }

    private static int show(Backend backend, String key, Duration ttl, Duration timeout, PrintStream out,
                            PrintStream err) {
        try {
            print(new LeaseInspection(backend, TimeSource.system(), timeout).read(key, ttl), backend, out);
            return ExitCode.OK;
        } catch (IllegalArgumentException e) {
            err.println("hoplock-cli: " + e.getMessage());
            return ExitCode.USAGE;
        } catch (BackendException e) {
            err.println("hoplock-cli: " + backend.describe() + " did not answer the read of '" + key + "': "
                    + e.getMessage());
            return ExitCode.STORE_FAILED;
        }
    }

    private static int release(Backend backend, CliArguments arguments, KeyTtl keyTtl, Duration timeout,
                               PrintStream out, PrintStream err) {
        Duration ttl = keyTtl.ttl();
        StuckLeaseRelease.Builder builder = StuckLeaseRelease.builder(backend).ttl(ttl).requestTimeout(timeout)
                .trustTtlOverExpiry(arguments.trustTtl()).ttlGivenExplicitly(arguments.ttl() != null);
        if (arguments.poll() != null) {
            builder.pollInterval(arguments.poll());
        }
        try (StuckLeaseRelease release = builder.build()) {
            out.println("observing '" + arguments.key() + "' in " + backend.describe() + " for at least "
                    + HumanDurations.format(ttl) + " (the longest TTL any holder of it uses: "
                    + keyTtl.source() + "); nothing is written before that");
            ReleaseReport report;
            try {
                report = release.release(arguments.key()).join();
            } catch (IllegalArgumentException e) {
                err.println("hoplock-cli: " + e.getMessage());
                return ExitCode.USAGE;
            }
            out.println("first read:");
            print(report.first(), backend, out);
            if (report.written() != null) {
                out.println("written:");
                print(report.written(), backend, out);
            } else if (!report.last().equals(report.first())) {
                out.println("last read:");
                print(report.last(), backend, out);
            }
            (report.outcome() == ReleaseReport.Outcome.RELEASED
                    || report.outcome() == ReleaseReport.Outcome.NOTHING_TO_RELEASE ? out : err)
                    .println(report.outcome() + ": " + report.message());
            return switch (report.outcome()) {
                case RELEASED, NOTHING_TO_RELEASE -> ExitCode.OK;
                case REFUSED, WRITE_REFUSED -> ExitCode.REFUSED;
                case FAILED -> ExitCode.STORE_FAILED;
            };
        }
    }

    /** The view as lines, the fields the Actuator endpoint's {@code store:records} shows. */
    static void print(LeaseRecordView view, Backend backend, PrintStream out) {
        line(out, "key", view.key());
        line(out, "store", backend.describe());
        line(out, "state", view.state().name().toLowerCase(java.util.Locale.ROOT));
        line(out, "holder", view.holder() == null || !view.holder().isEmpty() ? view.holder() : "(none)");
        line(out, "generation", view.holder() == null ? null : Long.toString(view.generation()));
        line(out, "expires_at", view.expiresAt() == null ? null : view.expiresAt().toString());
        line(out, "expiry", view.holder() == null ? null : view.expiryText());
        line(out, "handle", view.handle());
        line(out, "error", view.problem());
    }

    private static void line(PrintStream out, String name, @Nullable String value) {
        if (value != null) {
            out.printf("  %-11s %s%n", name + ":", value);
        }
    }

    /**
     * What went wrong, for the operator: the starter's own description and action when it explained the failure (a
     * {@link HoplockConfigurationException} in the chain: which setting, and what to set), otherwise the deepest
     * cause's message. Never a stack trace; the starter's messages never contain a secret.
     */
    static String rootMessage(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof HoplockConfigurationException explained) {
                return explained.description() + " " + explained.action();
            }
        }
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        String message = cause.getMessage();
        return message != null ? message : cause.toString();
    }
}
