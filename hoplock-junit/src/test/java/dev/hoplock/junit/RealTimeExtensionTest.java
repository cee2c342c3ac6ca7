package dev.hoplock.junit;

import dev.hoplock.core.election.Elector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The extension in real time: the engines on their own threads, the control waits for them. */
class RealTimeExtensionTest {

    @RegisterExtension
    static final HoplockExtension HOPLOCK = HoplockExtension.realTime(Duration.ofSeconds(20));

    @Test
    void anElectorOnItsOwnThreadsIsMadeFollowerAndLeader(TestHoplock hoplock) {
        assertThat(hoplock.isVirtualTime()).isFalse();
        try (Elector elector = hoplock.elector("jobs/report").owner("me").ttl(Duration.ofSeconds(1)).build()) {
            elector.start();
            hoplock.makeLeader(elector);
            assertThat(elector.isLeader()).isTrue();
            hoplock.makeFollower(elector);
            assertThat(elector.isLeader()).isFalse();
            hoplock.makeLeader(elector);
            assertThat(elector.isLeader()).isTrue();
        }
    }

    @Test
    void aRealTimeHoplockHasNoClock(TestHoplock hoplock) {
        assertThatThrownBy(hoplock::clock).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("real time");
    }
}
