package dev.hoplock.azure.blob;

import dev.hoplock.azure.blob.emulator.Azurite;
import dev.hoplock.azure.blob.emulator.AzuriteExtension;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.s3.server.FaultProxy;
import dev.hoplock.test.process.FailoverFigures;
import dev.hoplock.test.process.RequestCount;
import dev.hoplock.test.process.StoreFigures;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failover times over Azurite, for the documentation: {@link FailoverFigures} with three elector JVMs at TTL 2 s,
 * {@code -Dhoplock.failover.reps} (default 30) SIGKILLs and as many SIGTERMs; and the store requests of three electors
 * at TTL 30 s, counted by a proxy in front of Azurite for {@code -Dhoplock.figures.window} seconds (default 60).
 * With {@code -Dhoplock.figures.out=<file>} both are also written there ({@link StoreFigures}; what
 * {@code benchmarks/run.sh}'s {@code stores} stage does). Not in the default run (tag {@code figures}):
 * {@code mvn -B -ntp -pl hoplock-azure-blob -am verify -Pfailover-figures -Dtest=AzureBlobFailoverFigures
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("figures")
@ExtendWith(AzuriteExtension.class)
class AzureBlobFailoverFigures {

    private static final String STORE = "Azure Blob";
    private static final String SERVER = "Azurite 3.35.0";

    @Test
    void failoverAfterSigkillAndSigterm(Azurite azurite) throws Exception {
        String container = azurite.newContainer("figures");
        int reps = StoreFigures.reps();
        Duration ttl = Duration.ofSeconds(2);
        String load = StoreFigures.loadAverage();
        try (FailoverFigures figures = new FailoverFigures(AzureElectorMain.class,
                List.of(azurite.endpoint(), container, "f/"), Path.of("target", "failover-figures", container),
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
    void storeRequestsPerHour(Azurite azurite) throws Exception {
        String container = azurite.newContainer("requests");
        String load = StoreFigures.loadAverage();
        Duration ttl = Duration.ofSeconds(30);
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()))) {
            List<Backend> backends = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                backends.add(AzureBlobBackend.builder().connectionString("DefaultEndpointsProtocol=http;AccountName="
                        + Azurite.ACCOUNT + ";AccountKey=" + Azurite.ACCOUNT_KEY + ";BlobEndpoint=" + proxy.endpoint()
                        + "/" + Azurite.ACCOUNT + ";").container(container).verifyOnBuild(false).build());
            }
            List<Integer> marks = new ArrayList<>();
            RequestCount.Result result = RequestCount.measure(backends, ttl, StoreFigures.requestWindow(), () -> {
                int seen = proxy.requests().size();
                marks.add(seen);
                return seen;
            });
            Map<String, Long> byMethod = new TreeMap<>(proxy.requests().subList(marks.get(0), marks.get(1)).stream()
                    .collect(Collectors.groupingBy(FaultProxy.Request::method, Collectors.counting())));
            System.out.println("store requests on " + SERVER + ", TTL 30 s: " + result + "; by method: " + byMethod);
            StoreFigures.requests(STORE, SERVER, ttl, result, "HTTP requests to Azurite's blob endpoint, counted by a"
                    + " proxy in front of it", byMethod, load);
            assertThat(result.requests()).isPositive();
        }
    }
}
