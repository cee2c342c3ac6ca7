package dev.hoplock.cli;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.convert.DurationStyle;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of {@code hoplock-cli}, parsed: the command and key, the CLI's own options, and what goes to Spring
 * as settings (every other {@code --name=value}, and a settings file given as a plain argument).
 *
 * @param command    {@code show} or {@code release}
 * @param key        the lease key
 * @param ttl        {@code --ttl}: the longest TTL any holder of the key uses; null: the key's TTL from the settings
 *                   ({@link KeyTtl})
 * @param poll       {@code --poll}: how often {@code release} reads while it observes; null: TTL / 10
 * @param trustTtl   {@code --trust-ttl}: an expiry more than 2 x TTL ahead is taken as written by a clock that runs
 *                   ahead (see {@link dev.hoplock.core.operations.StuckLeaseRelease.Builder#trustTtlOverExpiry});
 *                   only with {@code --ttl}
 * @param springArgs the arguments for Spring: {@code --spring.config.location=...}, {@code --hoplock.backend=...},
 *                   and {@code --spring.config.additional-location=file:...} for a settings file given by its path
 */
record CliArguments(String command, String key, @Nullable Duration ttl, @Nullable Duration poll, boolean trustTtl,
                    List<String> springArgs) {

    static final String USAGE = """
            usage: java -jar hoplock-cli.jar [SETTINGS] show <key> [--ttl=DURATION]
                   java -jar hoplock-cli.jar [SETTINGS] release <key> [--ttl=DURATION [--trust-ttl]] [--poll=DURATION]
            SETTINGS: the application's hoplock.* settings, as the starter reads them: a file path
                      (application.yml or .properties), --spring.config.location=..., --hoplock.<name>=<value>,
                      or environment variables (HOPLOCK_BACKEND=filesystem, ...).
            show     prints the record under <key>: holder, generation, expires_at, expiry by this machine's clock.
            release  frees a stuck record: it observes the record unchanged for the longest TTL any holder of the key
                     uses (--ttl; default: the key's election TTL, the ownership TTL for <group>/members/, else
                     hoplock.ttl; named locks choose theirs per call), then writes the released record (no owner,
                     expired, the same generation) conditional on that version. A live holder renews meanwhile, and it
                     refuses. Never a delete. --trust-ttl (needs --ttl): your promise that no holder of the key uses a
                     TTL longer than --ttl, so an expiry more than 2 x TTL ahead is taken as a clock running ahead.
            exit codes: 0 ok, 2 usage, 3 settings/store, 4 store did not answer, 5 refused.""";

    /** Thrown for a command line that cannot be used; the message says why. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    static CliArguments parse(String[] args) throws UsageException {
        List<String> positional = new ArrayList<>();
        List<String> spring = new ArrayList<>();
        Duration ttl = null;
        Duration poll = null;
        boolean trust = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--trust-ttl")) {
                trust = true;
            } else if (arg.equals("--ttl") || arg.equals("--poll")) {
                if (i + 1 >= args.length) {
                    throw new UsageException(arg + " needs a duration, for example " + arg + "=30s");
                }
                Duration value = duration(arg, args[++i]);
                if (arg.equals("--ttl")) {
                    ttl = value;
                } else {
                    poll = value;
                }
            } else if (arg.startsWith("--ttl=")) {
                ttl = duration("--ttl", arg.substring("--ttl=".length()));
            } else if (arg.startsWith("--poll=")) {
                poll = duration("--poll", arg.substring("--poll=".length()));
            } else if (arg.startsWith("--") && arg.contains("=")) {
                spring.add(arg);
            } else if (arg.startsWith("-")) {
                throw new UsageException("unknown option " + arg + " (settings are given as --name=value)");
            } else if (positional.isEmpty() && isSettingsFile(arg)) {
                spring.add("--spring.config.additional-location=file:" + Path.of(arg).toAbsolutePath());
            } else {
                positional.add(arg);
            }
        }
        if (positional.size() != 2) {
            throw new UsageException(positional.isEmpty() ? "no command given"
                    : positional.size() == 1 ? "no lease key given" : "too many arguments: " + positional);
        }
        String command = positional.get(0);
        if (!command.equals("show") && !command.equals("release")) {
            throw new UsageException("unknown command '" + command + "' (show or release)");
        }
        if (command.equals("show") && (poll != null || trust)) {
            throw new UsageException("--poll and --trust-ttl belong to release, not show");
        }
        if (trust && ttl == null) {
            throw new UsageException("--trust-ttl needs an explicit --ttl: it is your promise that no holder of this"
                    + " key uses a TTL longer than the one given, and a default (hoplock.ttl, an election's or the"
                    + " ownership TTL) is no such promise; named locks choose their TTL per call");
        }
        return new CliArguments(command, positional.get(1), ttl, poll, trust, List.copyOf(spring));
    }

    private static boolean isSettingsFile(String arg) {
        return (arg.endsWith(".yml") || arg.endsWith(".yaml") || arg.endsWith(".properties"))
                && Files.isRegularFile(Path.of(arg));
    }

    private static Duration duration(String option, String text) throws UsageException {
        try {
            Duration value = DurationStyle.detectAndParse(text);
            if (value.isNegative() || value.isZero()) {
                throw new UsageException(option + " must be positive, was " + text);
            }
            return value;
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + " '" + text + "' is not a duration (for example 30s, 2m, 500ms)");
        }
    }
}
