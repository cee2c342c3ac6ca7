package dev.hoplock.spring.it;

import org.springframework.boot.ApplicationRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * An application runner that holds the application in its warm-up: SpringApplication runs runners after the context
 * has started and before it publishes {@code ApplicationReadyEvent} and readiness {@code ACCEPTING_TRAFFIC}, so until
 * {@link #finish(String)} the application is started but not ready. The started context is handed out first.
 */
@Configuration(proxyBeanMethods = false)
public class WarmUp {

    private static final Map<String, CompletableFuture<ConfigurableApplicationContext>> STARTED =
            new ConcurrentHashMap<>();
    private static final Map<String, CountDownLatch> FINISH = new ConcurrentHashMap<>();

    /** Completed with the context of {@code owner} once it is started and warming up. */
    public static CompletableFuture<ConfigurableApplicationContext> started(String owner) {
        return STARTED.computeIfAbsent(owner, o -> new CompletableFuture<>());
    }

    /** Ends the warm-up of {@code owner}: SpringApplication then marks it ready. */
    public static void finish(String owner) {
        latch(owner).countDown();
    }

    /** Forgets every warm-up (between tests). */
    public static void reset() {
        FINISH.values().forEach(CountDownLatch::countDown);
        FINISH.clear();
        STARTED.clear();
    }

    private static CountDownLatch latch(String owner) {
        return FINISH.computeIfAbsent(owner, o -> new CountDownLatch(1));
    }

    @Bean
    ApplicationRunner warmUpRunner(ConfigurableApplicationContext context, Environment environment) {
        String owner = environment.getRequiredProperty("hoplock.owner");
        return arguments -> {
            started(owner).complete(context);
            latch(owner).await();
        };
    }
}
