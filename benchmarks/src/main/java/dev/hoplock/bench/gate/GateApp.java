package dev.hoplock.bench.gate;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.spring.annotation.LeaderOnly;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application with the hoplock starter's auto-configuration, one election over an in-memory store
 * shared by every context of the JVM ({@link #STORE}), a bean with a {@code @LeaderOnly} method and a bean with the
 * same method without the annotation.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class GateApp {

    /** One store for the leader's and the follower's contexts, as S3 would be for two processes. */
    static final InMemoryBackend STORE = new InMemoryBackend();

    @Bean
    Backend hoplockStore() {
        return STORE;
    }

    @Bean
    GatedWork gatedWork() {
        return new GatedWork();
    }

    @Bean
    PlainWork plainWork() {
        return new PlainWork();
    }

    /** The method under test, gated. */
    public static class GatedWork {
        @LeaderOnly
        public String work(String input) {
            return input;
        }
    }

    /** The same method, not annotated: the bean is not proxied. */
    public static class PlainWork {
        public String work(String input) {
            return input;
        }
    }
}
