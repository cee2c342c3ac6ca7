package dev.hoplock.redis;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.redis.server.RedisServer;
import dev.hoplock.test.process.FailoverFigures;
import dev.hoplock.test.process.RequestCount;
import dev.hoplock.test.process.StoreFigures;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failover times over one {@code redis-server} started by the test, for the documentation: {@link FailoverFigures}
 * with three elector JVMs ({@link RedisElectorMain}) at TTL 2 s, {@code -Dhoplock.failover.reps} (default 30) SIGKILLs
 * and as many SIGTERMs; and the store requests of three electors at TTL 30 s in {@code -Dhoplock.figures.window}
 * seconds (default 60). With {@code -Dhoplock.figures.out=<file>} both are also written there ({@link StoreFigures};
 * what {@code benchmarks/run.sh}'s {@code stores} stage does). Not in the default run (tag {@code figures}):
 * {@code mvn -B -ntp -pl hoplock-redis -am verify -Pfailover-figures -Dtest=RedisFailoverFigures
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 *
 * <p>What is counted: the server's own count ({@code INFO commandstats}) of {@code EVALSHA} and {@code EVAL} calls,
 * the difference between the start and the end of the window. Every operation of the backend (read, create, swap,
 * delete) is one script call, {@code EVALSHA}, or {@code EVALSHA} and then {@code EVAL} when the server answered
 * {@code NOSCRIPT}; the commands the scripts run inside the server ({@code HMGET}, {@code HSET}, ...) are not
 * requests and are not counted, and neither is the {@code INFO} of the count itself. The server runs nothing else.
 */
@Tag("figures")
class RedisFailoverFigures {

    private static final String STORE = "Redis";

    @Test
    void failoverAfterSigkillAndSigterm() throws Exception {
        int reps = StoreFigures.reps();
        Duration ttl = Duration.ofSeconds(2);
        String load = StoreFigures.loadAverage();
        String prefix = TestRedis.uniquePrefix("figures");
        try (RedisServer server = RedisServer.start();
                FailoverFigures figures = new FailoverFigures(RedisElectorMain.class, List.of(server.uri(0), prefix),
                        Path.of("target", "failover-figures", prefix.replace(":", "")), ttl)) {
            String version = version(server);
            List<FailoverFigures.Summary> summaries = figures.run(reps);
            summaries.forEach(s -> System.out.println("failover on " + version + ", TTL 2000 ms: " + s));
            StoreFigures.failover(STORE, version, ttl, reps, summaries, load);
            assertThat(summaries.get(1).min()).as("no takeover before one TTL after the last renewal")
                    .isGreaterThanOrEqualTo(2000);
        }
    }

    /** Three electors at TTL 30 s (the S3 and OpenSearch figures' settings), counted by the server. */
    @Test
    void storeRequestsPerHour() throws Exception {
        String load = StoreFigures.loadAverage();
        Duration ttl = Duration.ofSeconds(30);
        String prefix = TestRedis.uniquePrefix("requests");
        try (RedisServer server = RedisServer.start()) {
            String version = version(server);
            List<RedisBackend> backends = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    backends.add(TestRedis.builder(server, 0).prefix(prefix).verifyOnBuild(false).build());
                }
                List<Map<String, Long>> marks = new ArrayList<>();
                RequestCount.Result result = RequestCount.measure(List.<Backend>copyOf(backends), ttl,
                        StoreFigures.requestWindow(), () -> {
                            Map<String, Long> calls = scriptCalls(server);
                            marks.add(calls);
                            return (int) calls.values().stream().mapToLong(Long::longValue).sum();
                        });
                Map<String, Long> byCommand = new TreeMap<>();
                marks.get(1).forEach((command, calls) -> byCommand.put(command,
                        calls - marks.get(0).getOrDefault(command, 0L)));
                System.out.println("store requests on " + version + ", TTL 30 s: " + result + "; by command: "
                        + byCommand);
                StoreFigures.requests(STORE, version, ttl, result, "script calls the server counted (INFO"
                        + " commandstats: EVALSHA, and EVAL after a NOSCRIPT), one per read, create, swap or delete;"
                        + " not the commands the scripts run inside the server", byCommand, load);
                assertThat(result.requests()).isPositive();
            } finally {
                backends.forEach(RedisBackend::close);
            }
        }
    }

    /** {@code Redis <version>}, as the server reports it. */
    private static String version(RedisServer server) throws IOException {
        String info = String.valueOf(server.command("INFO", "server"));
        return "Redis " + info.lines().filter(l -> l.startsWith("redis_version:")).map(l -> l.substring(14).strip())
                .findFirst().orElse("?");
    }

    /** The server's count of {@code EVALSHA} and {@code EVAL} calls so far, by command. */
    private static Map<String, Long> scriptCalls(RedisServer server) {
        String stats;
        try {
            stats = String.valueOf(server.command("INFO", "commandstats"));
        } catch (IOException e) {
            throw new UncheckedIOException("INFO commandstats failed on the test's redis-server", e);
        }
        Map<String, Long> calls = new TreeMap<>(Map.of("evalsha", 0L, "eval", 0L));
        stats.lines().forEach(line -> {
            for (String command : List.of("evalsha", "eval")) {
                String head = "cmdstat_" + command + ":calls=";
                if (line.startsWith(head)) {
                    String rest = line.substring(head.length());
                    int end = rest.indexOf(',');
                    calls.put(command, Long.parseLong(end < 0 ? rest : rest.substring(0, end)));
                }
            }
        });
        return calls;
    }
}
