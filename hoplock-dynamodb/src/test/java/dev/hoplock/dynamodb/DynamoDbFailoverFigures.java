package dev.hoplock.dynamodb;

import dev.hoplock.dynamodb.emulator.Dynalite;
import dev.hoplock.dynamodb.emulator.DynaliteExtension;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.s3.server.FaultProxy;
import dev.hoplock.test.process.FailoverFigures;
import dev.hoplock.test.process.RequestCount;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failover times over dynalite, for the documentation: {@link FailoverFigures} with three elector JVMs at TTL 2 s,
 * {@code -Dhoplock.failover.reps} (default 30) SIGKILLs and as many SIGTERMs. Not in the default run (tag
 * {@code figures}): {@code mvn -B -ntp -pl hoplock-dynamodb -am verify -Pfailover-figures
 * -Dtest=DynamoDbFailoverFigures -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("figures")
@ExtendWith(DynaliteExtension.class)
class DynamoDbFailoverFigures {

    @Test
    void failoverAfterSigkillAndSigterm(Dynalite dynalite) throws Exception {
        String table = dynalite.newTable("figures");
        int reps = Integer.getInteger("hoplock.failover.reps", 30);
        try (FailoverFigures figures = new FailoverFigures(DynamoElectorMain.class,
                List.of(dynalite.endpoint().toString(), table, "f/"), Path.of("target", "failover-figures", table),
                Duration.ofSeconds(2))) {
            List<FailoverFigures.Summary> summaries = figures.run(reps);
            summaries.forEach(s -> System.out.println("failover on dynalite 4.0.0, TTL 2000 ms: " + s));
            assertThat(summaries.get(1).min()).as("no takeover before one TTL after the last renewal")
                    .isGreaterThanOrEqualTo(2000);
        }
    }

    /** Three electors at TTL 30 s, counted by a proxy for 60 s (the S3 and OpenSearch figures' settings). */
    @Test
    void storeRequestsPerHour(Dynalite dynalite) throws Exception {
        String table = dynalite.newTable("requests");
        try (FaultProxy proxy = FaultProxy.start(dynalite.endpoint())) {
            List<Backend> backends = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                backends.add(TestDynamo.builder(proxy.endpoint(), table, "").verifyOnBuild(false).build());
            }
            RequestCount.Result result = RequestCount.measure(backends, Duration.ofSeconds(30),
                    Duration.ofSeconds(60), () -> proxy.requests().size());
            System.out.println("store requests on dynalite 4.0.0, TTL 30 s: " + result + "; by call: "
                    + proxy.requests().stream().collect(java.util.stream.Collectors.groupingBy(DynamoProxies::call,
                    java.util.stream.Collectors.counting())));
            assertThat(result.requests()).isPositive();
        }
    }
}
