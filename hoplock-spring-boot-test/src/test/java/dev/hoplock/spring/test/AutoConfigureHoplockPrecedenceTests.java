package dev.hoplock.spring.test;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.FilesystemBackend;
import dev.hoplock.spring.leader.HoplockElections;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What wins over {@code @AutoConfigureHoplock}: the test's own properties, and an application's Backend bean. */
class AutoConfigureHoplockPrecedenceTests {

    @Nested
    @SpringBootTest(classes = TestApplication.class, properties = "hoplock.ttl=7s")
    @AutoConfigureHoplock
    class TheTestsOwnPropertiesWin {

        @Autowired
        HoplockElections elections;

        @Test
        void theTtlOfTheTestIsKept() {
            assertThat(elections.getDefault().settings().ttl()).isEqualTo(Duration.ofSeconds(7));
        }
    }

    @Nested
    @SpringBootTest(classes = {TestApplication.class, TheApplicationsOwnBackend.Store.class})
    @AutoConfigureHoplock
    class TheApplicationsOwnBackend {

        @TestConfiguration
        static class Store {
            @Bean
            Backend applicationBackend() throws IOException {
                return new FilesystemBackend(Files.createTempDirectory("hoplock-app-store"));
            }
        }

        @Autowired
        HoplockTestControl hoplock;

        @Test
        void theControlRefusesToWorkAndSaysWhy() {
            assertThatThrownBy(hoplock::makeFollower).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not the in-memory store")
                    .hasMessageContaining("defines its own Backend bean");
        }
    }
}
