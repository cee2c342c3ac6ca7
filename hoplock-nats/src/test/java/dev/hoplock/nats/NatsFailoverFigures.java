package dev.hoplock.nats;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.nats.server.NatsServer;
import dev.hoplock.test.process.FailoverFigures;
import dev.hoplock.test.process.RequestCount;
import dev.hoplock.test.process.StoreFigures;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failover times over one {@code nats-server} with JetStream started by the test, for the documentation:
 * {@link FailoverFigures} with three elector JVMs ({@link NatsElectorMain}, one KV bucket of one replica) at TTL 2 s,
 * {@code -Dhoplock.failover.reps} (default 30) SIGKILLs and as many SIGTERMs; and the store requests of three electors
 * at TTL 30 s in {@code -Dhoplock.figures.window} seconds (default 60). With {@code -Dhoplock.figures.out=<file>} both
 * are also written there ({@link StoreFigures}; what {@code benchmarks/run.sh}'s {@code stores} stage does). Not in the
 * default run (tag {@code figures}): {@code mvn -B -ntp -pl hoplock-nats -am verify -Pfailover-figures
 * -Dtest=NatsFailoverFigures -Dsurefire.failIfNoSpecifiedTests=false}.
 *
 * <p>What is counted: the messages the three backends' connections published to the server, as the server counts
 * them (its monitoring endpoint {@code /connz}, {@code in_msgs} summed over the client connections), the difference
 * between the start and the end of the window. Every request of the backend is one published message: a read is a
 * {@code $JS.API.STREAM.MSG.GET} request, a create, swap or delete a conditional publish to the key's subject (a
 * refused one adds a read); the answers the server sends back are not counted, and neither are the protocol's
 * {@code PING}s. The server has no other client.
 */
@Tag("figures")
class NatsFailoverFigures {

    private static final String STORE = "NATS JetStream KV";
    private static final Pattern IN_MSGS = Pattern.compile("\"in_msgs\":\\s*(\\d+)");

    @Test
    void failoverAfterSigkillAndSigterm() throws Exception {
        int reps = StoreFigures.reps();
        Duration ttl = Duration.ofSeconds(2);
        String load = StoreFigures.loadAverage();
        String bucket = TestNats.newBucket("figures");
        String version = "nats-server " + NatsServer.version();
        try (NatsServer server = NatsServer.startSingle("figures")) {
            NatsBackend.builder().servers(server.url()).bucket(bucket).createBucket(true)
                    .requestTimeout(Duration.ofSeconds(5)).build().close();
            try (FailoverFigures figures = new FailoverFigures(NatsElectorMain.class, List.of(server.url(), bucket),
                    Path.of("target", "failover-figures", bucket), ttl)) {
                List<FailoverFigures.Summary> summaries = figures.run(reps);
                summaries.forEach(s -> System.out.println("failover on " + version + ", TTL 2000 ms: " + s));
                StoreFigures.failover(STORE, version, ttl, reps, summaries, load);
                assertThat(summaries.get(1).min()).as("no takeover before one TTL after the last renewal")
                        .isGreaterThanOrEqualTo(2000);
            }
        }
    }

    /** Three electors at TTL 30 s (the S3 and OpenSearch figures' settings), counted by the server. */
    @Test
    void storeRequestsPerHour() throws Exception {
        String load = StoreFigures.loadAverage();
        Duration ttl = Duration.ofSeconds(30);
        String bucket = TestNats.newBucket("requests");
        String version = "nats-server " + NatsServer.version();
        int monitor = NatsServer.freePort();
        try (NatsServer server = NatsServer.start("requests", true, "http: \"127.0.0.1:" + monitor + "\"")) {
            NatsBackend.builder().servers(server.url()).bucket(bucket).createBucket(true)
                    .requestTimeout(Duration.ofSeconds(5)).build().close();
            List<NatsBackend> backends = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    backends.add(NatsBackend.builder().servers(server.url()).bucket(bucket)
                            .requestTimeout(Duration.ofSeconds(5)).verify(false).build());
                }
                RequestCount.Result result = RequestCount.measure(List.<Backend>copyOf(backends), ttl,
                        StoreFigures.requestWindow(), () -> publishedByClients(monitor));
                System.out.println("store requests on " + version + ", TTL 30 s: " + result);
                StoreFigures.requests(STORE, version, ttl, result, "messages the three backends' connections"
                        + " published to the server (its /connz in_msgs, summed over the client connections): one"
                        + " per read ($JS.API.STREAM.MSG.GET) and per conditional publish (create, swap, delete);"
                        + " not the answers, not the protocol's PINGs", Map.of(), load);
                assertThat(result.requests()).isPositive();
            } finally {
                for (NatsBackend backend : backends) {
                    backend.close();
                }
            }
        }
    }

    /** {@code in_msgs} summed over the client connections the server's {@code /connz} lists. */
    private static int publishedByClients(int monitor) {
        String connz;
        try {
            HttpURLConnection http = (HttpURLConnection) URI.create("http://127.0.0.1:" + monitor + "/connz").toURL()
                    .openConnection();
            http.setConnectTimeout(5_000);
            http.setReadTimeout(5_000);
            try (InputStream in = http.getInputStream()) {
                connz = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } finally {
                http.disconnect();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the test server's monitoring endpoint /connz did not answer", e);
        }
        Matcher matcher = IN_MSGS.matcher(connz);
        int sum = 0;
        int connections = 0;
        while (matcher.find()) {
            sum += Integer.parseInt(matcher.group(1));
            connections++;
        }
        assertThat(connections).as("the three backends' connections in /connz: " + connz).isEqualTo(3);
        return sum;
    }
}
