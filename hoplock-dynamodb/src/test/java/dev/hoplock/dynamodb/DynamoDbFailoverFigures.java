package dev.hoplock.dynamodb;

import dev.hoplock.dynamodb.emulator.Dynalite;
import dev.hoplock.dynamodb.emulator.DynaliteExtension;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.s3.server.FaultProxy;
import dev.hoplock.test.process.FailoverFigures;
import dev.hoplock.test.process.RequestCount;
import dev.hoplock.test.process.StoreFigures;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failover times over dynalite, for the documentation: {@link FailoverFigures} with three elector JVMs at TTL 2 s,
 * {@code -Dhoplock.failover.reps} (default 30) SIGKILLs and as many SIGTERMs; and the store requests of three electors
 * at TTL 30 s, counted by a proxy in front of dynalite for {@code -Dhoplock.figures.window} seconds (default 60).
 * With {@code -Dhoplock.figures.out=<file>} both are also written there ({@link StoreFigures}; what
 * {@code benchmarks/run.sh}'s {@code stores} stage does). Not in the default run (tag {@code figures}):
 * {@code mvn -B -ntp -pl hoplock-dynamodb -am verify -Pfailover-figures -Dtest=DynamoDbFailoverFigures
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("figures")
@ExtendWith(DynaliteExtension.class)
class DynamoDbFailoverFigures {

    private static final String STORE = "DynamoDB";
    private static final String SERVER = "dynalite 4.0.0";

    @Test
    void failoverAfterSigkillAndSigterm(Dynalite dynalite) throws Exception {
        String table = dynalite.newTable("figures");
        int reps = StoreFigures.reps();
        Duration ttl = Duration.ofSeconds(2);
        String load = StoreFigures.loadAverage();
        try (FailoverFigures figures = new FailoverFigures(DynamoElectorMain.class,
                List.of(dynalite.endpoint().toString(), table, "f/"), Path.of("target", "failover-figures", table),
                ttl)) {
            List<FailoverFigures.Summary> summaries = figures.run(reps);
            summaries.forEach(s -> System.out.println("failover on " + SERVER + ", TTL 2000 ms: " + s));
            StoreFigures.failover(STORE, SERVER, ttl, reps, summaries, load);
            assertThat(summaries.get(1).min()).as("no takeover before one TTL after the last renewal")
                    .isGreaterThanOrEqualTo(2000);
        }
    }

    /** Three electors at TTL 30 s, counted by a proxy (the S3 and OpenSearch figures' settings). */
    @Test
    void storeRequestsPerHour(Dynalite dynalite) throws Exception {
        String table = dynalite.newTable("requests");
        String load = StoreFigures.loadAverage();
        Duration ttl = Duration.ofSeconds(30);
        try (FaultProxy proxy = FaultProxy.start(dynalite.endpoint())) {
            List<Backend> backends = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                backends.add(TestDynamo.builder(proxy.endpoint(), table, "").verifyOnBuild(false).build());
            }
            List<Integer> marks = new ArrayList<>();
            RequestCount.Result result = RequestCount.measure(backends, ttl, StoreFigures.requestWindow(), () -> {
                int seen = proxy.requests().size();
                marks.add(seen);
                return seen;
            });
            Map<String, Long> byCall = new TreeMap<>(proxy.requests().subList(marks.get(0), marks.get(1)).stream()
                    .collect(Collectors.groupingBy(DynamoProxies::call, Collectors.counting())));
            System.out.println("store requests on " + SERVER + ", TTL 30 s: " + result + "; by call: " + byCall);
            StoreFigures.requests(STORE, SERVER, ttl, result, "HTTP requests to dynalite, counted by a proxy in front"
                    + " of it (one per DynamoDB API call)", byCall, load);
            assertThat(result.requests()).isPositive();
        }
    }
}
