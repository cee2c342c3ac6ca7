package dev.hoplock.spring.it;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.Role;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.lock.LockCallMeters;
import dev.hoplock.spring.lock.WithLock;
import dev.hoplock.spring.lock.WithLockListener;
import dev.hoplock.spring.ownership.HoplockOwnership;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 23, fix 8: {@code hoplock.act-when} is one setting for every primitive, with one default ({@code ready}).
 * A whole application (SpringApplication, so with Boot's readiness) whose readiness state is REFUSING_TRAFFIC while it
 * warms up: its election does not campaign (no claim), its ownership group is not joined (no registry, no membership
 * lease), and a {@code @WithLock} call takes no lock: it is skipped like a call whose lock is held elsewhere, and
 * counted as refused with reason {@code not_ready}. Once ready, all three act; with {@code act-when=started} all three
 * act while warming up.
 */
class ActWhenReadyTests {

    private static final Duration TTL = Duration.ofMillis(1500);

    @TempDir
    Path directory;

    private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();
    private final List<CompletableFuture<ConfigurableApplicationContext>> running = new ArrayList<>();

    @BeforeEach
    void reset() {
        DemoJobApplication.reset();
        WarmUp.reset();
        Refusals.SEEN.clear();
    }

    @AfterEach
    void closeAll() throws Exception {
        WarmUp.reset();
        for (CompletableFuture<ConfigurableApplicationContext> run : running) {
            run.get(30, TimeUnit.SECONDS);
        }
        contexts.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void whileRefusingTrafficNoPrimitiveActsAndOnceReadyEveryOneDoes() throws Exception {
        ConfigurableApplicationContext app = startWarmingUp("app-a");
        assertThat(app.getBean(ApplicationAvailability.class).getReadinessState())
                .isEqualTo(ReadinessState.REFUSING_TRAFFIC);
        Elector elector = app.getBean(HoplockElections.class).getDefault();
        HoplockOwnership ownership = app.getBean(HoplockOwnership.class);
        Reports reports = app.getBean(Reports.class);

        await().during(TTL.multipliedBy(2)).atMost(TTL.multipliedBy(4))
                .until(() -> !elector.isLeader() && !ownership.isMember());
        assertThat(elector.status().role()).as("the election did not campaign").isEqualTo(Role.NEW);
        assertThat(ownership.members()).as("no membership").isEmpty();
        assertThat(reports.report()).as("the @WithLock call is skipped").isNull();
        assertThat(reports.runs()).isZero();
        assertThat(app.getBean(Locks.class).held()).isEmpty();
        assertThat(Refusals.SEEN).containsExactly(WithLockListener.Refusal.NOT_READY);
        assertThat(app.getBean(MeterRegistry.class).get(LockCallMeters.REFUSED).tag("reason", "not_ready").counter()
                .count()).as("counted").isEqualTo(1);
        assertThat(storedKeys()).as("nothing was written to the store: no claim, no registry, no lock").isEmpty();

        WarmUp.finish("app-a");
        await().atMost(Duration.ofSeconds(10)).until(() -> elector.isLeader() && ownership.isMember());
        assertThat(reports.report()).isEqualTo("ran");
        assertThat(reports.runs()).isEqualTo(1);

        // Refusing traffic again: the leader steps down and @WithLock calls are skipped again.
        AvailabilityChangeEvent.publish(app, ReadinessState.REFUSING_TRAFFIC);
        await().atMost(Duration.ofSeconds(10)).until(() -> !elector.isLeader());
        assertThat(reports.report()).isNull();
        assertThat(reports.runs()).isEqualTo(1);
    }

    @Test
    void actWhenStartedActsWhileWarmingUp() throws Exception {
        ConfigurableApplicationContext app = startWarmingUp("app-b", "hoplock.act-when=started");
        Elector elector = app.getBean(HoplockElections.class).getDefault();
        HoplockOwnership ownership = app.getBean(HoplockOwnership.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> elector.isLeader() && ownership.isMember());
        assertThat(app.getBean(Reports.class).report()).isEqualTo("ran");
        assertThat(Refusals.SEEN).isEmpty();
    }

    /** Every key the filesystem store holds (file paths under the store's directory). */
    private List<Path> storedKeys() throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    private ConfigurableApplicationContext startWarmingUp(String owner, String... properties) throws Exception {
        SpringApplicationBuilder builder = new SpringApplicationBuilder(DemoJobApplication.class, WarmUp.class,
                Fixtures.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off",
                        "hoplock.backend=filesystem", "hoplock.filesystem.directory=" + directory,
                        "hoplock.owner=" + owner, "hoplock.ttl=" + TTL.toMillis() + "ms", "hoplock.renew=500ms",
                        "hoplock.poll=100ms", "hoplock.release-timeout=1s",
                        "hoplock.ownership.group=billing", "hoplock.ownership.member-id=" + owner,
                        "hoplock.ownership.ttl=" + TTL.toMillis() + "ms", "hoplock.ownership.renew=500ms",
                        "hoplock.ownership.poll=100ms", "hoplock.ownership.release-timeout=1s",
                        "spring.jmx.enabled=false", "logging.level.root=WARN", "logging.level.dev.hoplock=INFO")
                .properties(properties);
        running.add(CompletableFuture.supplyAsync(builder::run));
        ConfigurableApplicationContext context = WarmUp.started(owner).get(30, TimeUnit.SECONDS);
        contexts.add(context);
        return context;
    }

    /** The fixture beans: a {@code @WithLock} method and a listener of its refusals. */
    @Configuration(proxyBeanMethods = false)
    static class Fixtures {

        @Bean
        Reports reports() {
            return new Reports();
        }

        @Bean
        Refusals refusals() {
            return new Refusals();
        }
    }

    /** One {@code @WithLock} method. */
    public static class Reports {

        private volatile int runs;

        @WithLock(name = "report", lockAtMostFor = "1m")
        public String report() {
            runs++;
            return "ran";
        }

        int runs() {
            return runs;
        }
    }

    /** Records why calls did not run. */
    static class Refusals implements WithLockListener {

        static final Queue<Refusal> SEEN = new ConcurrentLinkedQueue<>();

        @Override
        public void refused(String lock, Method method, Refusal why) {
            SEEN.add(why);
        }
    }
}
