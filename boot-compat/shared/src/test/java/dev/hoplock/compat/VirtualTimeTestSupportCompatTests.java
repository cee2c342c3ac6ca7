package dev.hoplock.compat;

import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.test.AutoConfigureHoplock;
import dev.hoplock.spring.test.HoplockTestControl;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.context.SpringBootTest;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @AutoConfigureHoplock(time = VIRTUAL)} on the compatibility application, on the Spring Boot version this
 * module builds with: the elector runs on the context's virtual clock (the auto-configuration of this Boot generation
 * applies the test support's customizers), so a crashed leader's lease runs out as the test advances the clock, in
 * virtual time and not in real time. Not in AOT mode, as {@link TestSupportCompatTests}.
 */
@SpringBootTest(classes = CompatApplication.class)
@AutoConfigureHoplock(ttl = "30s", time = AutoConfigureHoplock.Time.VIRTUAL)
class VirtualTimeTestSupportCompatTests {

    @Autowired
    HoplockTestControl hoplock;

    @Autowired
    HoplockElections elections;

    @Autowired
    CompatApplication.GatedWork work;

    @Test
    void aCrashedLeadersLeaseRunsOutOnTheVirtualClock() {
        assertThat(SpringBootVersion.getVersion()).isEqualTo(System.getProperty("compat.expected-boot-version"));
        hoplock.makeFollower();
        assertThat(work.work()).isNull();

        Duration virtualBefore = hoplock.elapsed();
        long realBefore = System.nanoTime();
        hoplock.crashRival();
        assertThat(hoplock.elapsed().minus(virtualBefore)).isGreaterThanOrEqualTo(Duration.ofSeconds(30));
        assertThat(Duration.ofNanos(System.nanoTime() - realBefore)).isLessThan(Duration.ofSeconds(30));
        assertThat(elections.getDefault().isLeader()).isTrue();
        assertThat(work.work()).isNotNull();
    }
}
