package dev.hoplock.compat;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.leader.LeaderOnly;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * hoplock's observations as real spans (issue 23), on Spring Boot 4.1.2 and 3.5.7 (the modules that add this test
 * source) with Brave through Micrometer Tracing, both configured by Boot's own auto-configuration (the application only adds a {@link SpanHandler} that keeps the
 * finished spans): a {@code @Scheduled @LeaderOnly} call that ran is a span whose parent is the span of Spring's
 * scheduled-task observation, in the same trace; the store requests are spans tagged with the store kind, operation
 * and outcome; the lease term is a span that ends when the lease is released; no span carries the lease key.
 */
class TracesCompatTests {

    @TempDir
    Path directory;

    private final List<ConfigurableApplicationContext> started = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeAll() {
        started.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void aScheduledLeaderOnlyCallIsAChildSpanOfTheScheduledTaskAndStoreRequestsAndTheTermAreSpans() {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(CompatApplication.class,
                TracedJobs.class)
                .properties("hoplock.filesystem.directory=" + directory, "hoplock.owner=traced",
                        "hoplock.key=traced-lease-key", "hoplock.ttl=10s", "hoplock.renew=2s", "hoplock.poll=100ms",
                        "management.tracing.sampling.probability=1.0")
                .run();
        started.add(context);
        Spans spans = context.getBean(Spans.class);
        TracedJob job = context.getBean(TracedJob.class);
        await().atMost(Duration.ofSeconds(20)).until(() -> job.runs() >= 2);

        // By its keys: the span's name is the contextual name, "leader-only TracedJob.tick", which Micrometer
        // Tracing 1.5 (Boot 3.5) turns into "leader-only -traced-job.tick".
        MutableSpan gated = Objects.requireNonNull(await().atMost(Duration.ofSeconds(5)).until(
                () -> spans.tagged("method", "TracedJob.tick"), Objects::nonNull));
        assertThat(gated.name()).startsWith("leader-only ");
        assertThat(gated.tags()).containsEntry("election", "default").containsEntry("method", "TracedJob.tick");
        MutableSpan parent = spans.withId(gated.traceId(), gated.parentId());
        assertThat(parent).as("the parent span of %s", gated).isNotNull();
        assertThat(Objects.requireNonNull(parent).tags()).as("Spring's scheduled-task observation").containsEntry("code.function", "tick");

        MutableSpan write = spans.all().stream().filter(span -> "hoplock write".equals(span.name())).findFirst()
                .orElseThrow();
        assertThat(write.tags()).containsEntry("store", "filesystem").containsEntry("primitive", "election")
                .containsEntry("name", "default").containsEntry("operation", "write")
                .containsEntry("outcome", "applied").containsEntry("result", "written");

        context.getBean(HoplockElections.class).close();
        MutableSpan term = Objects.requireNonNull(await().atMost(Duration.ofSeconds(10))
                .until(() -> spans.named("hoplock lease"), Objects::nonNull));
        assertThat(term.tags()).containsEntry("primitive", "election").containsEntry("acquisition", "free")
                .containsEntry("outcome", "released").containsEntry("cause", "stopped");
        assertThat(spans.all()).allSatisfy(span -> assertThat(span.tags().values())
                .noneMatch(value -> value.contains("traced-lease-key")));
    }

    /** A scheduled leader-only job, and the span handler that keeps every finished span. */
    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    static class TracedJobs {

        @Bean
        TracedJob tracedJob() {
            return new TracedJob();
        }

        @Bean
        Spans spans() {
            return new Spans();
        }
    }

    public static class TracedJob {
        private final AtomicInteger runs = new AtomicInteger();

        @Scheduled(fixedDelay = 50)
        @LeaderOnly
        public void tick() {
            runs.incrementAndGet();
        }

        public int runs() {
            return runs.get();
        }
    }

    /** Brave's finished spans, in memory. */
    static class Spans extends SpanHandler {
        private final List<MutableSpan> finished = new CopyOnWriteArrayList<>();

        @Override
        public boolean end(TraceContext context, MutableSpan span, Cause cause) {
            if (cause == Cause.FINISHED) {
                finished.add(span);
            }
            return true;
        }

        List<MutableSpan> all() {
            return List.copyOf(finished);
        }

        @Nullable MutableSpan named(String name) {
            return finished.stream().filter(span -> name.equals(span.name())).findFirst().orElse(null);
        }

        @Nullable MutableSpan tagged(String key, String value) {
            return finished.stream().filter(span -> value.equals(span.tag(key))).findFirst().orElse(null);
        }

        @Nullable MutableSpan withId(String traceId, @Nullable String id) {
            return finished.stream().filter(span -> span.traceId().equals(traceId) && span.id().equals(id))
                    .findFirst().orElse(null);
        }
    }
}
