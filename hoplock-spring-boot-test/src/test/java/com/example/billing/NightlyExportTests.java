package com.example.billing;

import dev.hoplock.core.election.Elector;
import dev.hoplock.junit.HoplockControl;
import dev.hoplock.junit.HoplockExtension;
import dev.hoplock.junit.TestHoplock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(HoplockExtension.class)
class NightlyExportTests {

    @Test
    void theExportFollowsWhileAnotherInstanceLeads(TestHoplock hoplock) {
        // What your code builds, on the test's store and clock.
        Elector elector = hoplock.closeAtEnd(hoplock.elector("exports/nightly").ttl(Duration.ofSeconds(30)).build());
        elector.start();

        hoplock.makeLeader(elector);
        long token = elector.currentLease().orElseThrow().generation();

        hoplock.makeFollower(elector);
        hoplock.advance(Duration.ofHours(1));   // the rival renews: still following after an hour
        assertThat(elector.isLeader()).isFalse();
        assertThat(elector.holder().orElseThrow().owner()).isEqualTo(HoplockControl.RIVAL);

        hoplock.makeLeader(elector);
        assertThat(elector.currentLease().orElseThrow().generation()).isGreaterThan(token);
    }
}
