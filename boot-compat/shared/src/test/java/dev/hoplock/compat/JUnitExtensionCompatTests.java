package dev.hoplock.compat;

import dev.hoplock.core.election.Elector;
import dev.hoplock.junit.HoplockExtension;
import dev.hoplock.junit.TestHoplock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * hoplock-junit's extension on the JUnit this module's Spring Boot version manages (Jupiter 5.12 on Boot 3.5, 6.0 on
 * Boot 4): built against one, it runs on both.
 */
@ExtendWith(HoplockExtension.class)
class JUnitExtensionCompatTests {

    @Test
    void theExtensionGivesAVirtualTimeHoplockWhoseControlMovesLeadership(TestHoplock hoplock) {
        Elector elector = hoplock.closeAtEnd(hoplock.elector("compat/junit").owner("me").build());
        elector.start();
        hoplock.makeLeader(elector);
        assertThat(elector.isLeader()).isTrue();
        hoplock.makeFollower(elector);
        assertThat(elector.isLeader()).isFalse();
    }
}
