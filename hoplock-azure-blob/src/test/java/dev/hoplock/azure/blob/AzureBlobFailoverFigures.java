package dev.hoplock.azure.blob;

import dev.hoplock.azure.blob.emulator.Azurite;
import dev.hoplock.azure.blob.emulator.AzuriteExtension;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.s3.server.FaultProxy;
import dev.hoplock.test.process.FailoverFigures;
import dev.hoplock.test.process.RequestCount;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failover times over Azurite, for the documentation: {@link FailoverFigures} with three elector JVMs at TTL 2 s,
 * {@code -Dhoplock.failover.reps} (default 30) SIGKILLs and as many SIGTERMs. Not in the default run (tag
 * {@code figures}): {@code mvn -B -ntp -pl hoplock-azure-blob -am verify -Pfailover-figures
 * -Dtest=AzureBlobFailoverFigures -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("figures")
@ExtendWith(AzuriteExtension.class)
class AzureBlobFailoverFigures {

    @Test
    void failoverAfterSigkillAndSigterm(Azurite azurite) throws Exception {
        String container = azurite.newContainer("figures");
        int reps = Integer.getInteger("hoplock.failover.reps", 30);
        try (FailoverFigures figures = new FailoverFigures(AzureElectorMain.class,
                List.of(azurite.endpoint(), container, "f/"), Path.of("target", "failover-figures", container),
                Duration.ofSeconds(2))) {
            List<FailoverFigures.Summary> summaries = figures.run(reps);
            summaries.forEach(s -> System.out.println("failover on Azurite 3.35.0, TTL 2000 ms: " + s));
            assertThat(summaries.get(1).min()).as("no takeover before one TTL after the last renewal")
                    .isGreaterThanOrEqualTo(2000);
        }
    }

    /** Three electors at TTL 30 s, counted by a proxy for 60 s (the S3 and OpenSearch figures' settings). */
    @Test
    void storeRequestsPerHour(Azurite azurite) throws Exception {
        String container = azurite.newContainer("requests");
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()))) {
            List<Backend> backends = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                backends.add(AzureBlobBackend.builder().connectionString("DefaultEndpointsProtocol=http;AccountName="
                        + Azurite.ACCOUNT + ";AccountKey=" + Azurite.ACCOUNT_KEY + ";BlobEndpoint=" + proxy.endpoint()
                        + "/" + Azurite.ACCOUNT + ";").container(container).verifyOnBuild(false).build());
            }
            RequestCount.Result result = RequestCount.measure(backends, Duration.ofSeconds(30),
                    Duration.ofSeconds(60), () -> proxy.requests().size());
            System.out.println("store requests on Azurite 3.35.0, TTL 30 s: " + result);
            assertThat(result.requests()).isPositive();
        }
    }
}
