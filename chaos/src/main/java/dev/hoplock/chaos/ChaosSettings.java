package dev.hoplock.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The arguments of a chaos run ({@code name=value}, all optional; listed on {@link ChaosRun}), with the defaults
 * applied to the ones every part of the run reads. Durations are in nanoseconds unless they are {@link Duration}s.
 * Immutable; an argument that does not parse is refused when the settings are made, before anything starts.
 */
record ChaosSettings(Map<String, String> arguments, long ttl, long poll, Primitive primitive, List<String> resources,
        long hold, Duration s3Start, Duration s3Restart, Path out) {

    /** Parses {@code name=value} arguments; refuses one without {@code =}. */
    static ChaosSettings parse(String[] args) {
        Map<String, String> a = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("arguments are name=value, got " + arg);
            }
            a.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        return of(a);
    }

    private static ChaosSettings of(Map<String, String> a) {
        long ttl = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(a.getOrDefault("ttlMs", "5000")));
        long poll = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(a.getOrDefault("pollMs", "250")));
        Primitive primitive = Primitive.parse(a.getOrDefault("primitive", "elector"));
        List<String> resources = primitive.resources(primitive.resourceCount(a.get("resources")));
        long hold = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(a.getOrDefault("holdMs", "3000")));
        Duration s3Start = Duration.ofSeconds(Long.parseLong(a.getOrDefault("s3StartSeconds", "180")));
        Duration s3Restart = Duration.ofSeconds(Long.parseLong(a.getOrDefault("s3RestartSeconds",
                Long.toString(s3Start.toSeconds()))));
        Path out = Path.of(a.getOrDefault("out", "target/chaos/"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))));
        return new ChaosSettings(a, ttl, poll, primitive, resources, hold, s3Start, s3Restart, out);
    }

    /** The argument {@code name}, or {@code fallback} when it was not given. */
    String arg(String name, String fallback) {
        return arguments.getOrDefault(name, fallback);
    }
}
