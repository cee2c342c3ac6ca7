package dev.hoplock.compat;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.spring.test.AutoConfigureHoplock;
import dev.hoplock.spring.test.HoplockTestControl;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @AutoConfigureHoplock} (hoplock-spring-boot-test, one artifact for every Boot generation) on the
 * compatibility application, on the Spring Boot version this module builds with: the context leaves the application's
 * filesystem store for the in-memory one, and the control makes it follower and leader with the gate following.
 * Not in AOT mode (boot-4.0-aot excludes it): there the store is fixed when process-aot ran.
 */
@SpringBootTest(classes = CompatApplication.class)
@AutoConfigureHoplock
class TestSupportCompatTests {

    @Autowired
    HoplockTestControl hoplock;

    @Autowired
    CompatApplication.GatedWork work;

    @Autowired
    Backend backend;

    @Test
    void theControlMakesThisInstanceFollowerAndLeaderAndTheGateFollows() {
        assertThat(SpringBootVersion.getVersion()).isEqualTo(System.getProperty("compat.expected-boot-version"));
        assertThat(backend).isInstanceOf(InMemoryBackend.class);

        hoplock.makeFollower();
        hoplock.calls().reset();
        assertThat(work.work()).isNull();
        hoplock.calls().assertSkipped("GatedWork.work", 1);
        hoplock.calls().assertNotRun("GatedWork.work");

        hoplock.makeLeader();
        assertThat(work.work()).isNotNull();
        hoplock.calls().assertRanOnce("GatedWork.work");
    }
}
