package dev.hoplock.junit;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.NamedLocks;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.core.record.LeaseRecordCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The extension in virtual time, with engines a test builds itself, as an application's plain test would. */
@ExtendWith(HoplockExtension.class)
class HoplockExtensionTest {

    @Test
    void anElectorIsMadeFollowerAndLeaderAgainThroughTheStoreWithARisingToken(TestHoplock hoplock) throws Exception {
        try (Elector elector = hoplock.elector("jobs/report").owner("me").ttl(Duration.ofSeconds(30)).build()) {
            elector.start();
            hoplock.makeLeader(elector);
            assertThat(elector.isLeader()).isTrue();
            long first = elector.currentLease().orElseThrow().generation();

            Duration before = hoplock.clock().elapsed();
            hoplock.makeFollower(elector);
            assertThat(elector.isLeader()).isFalse();
            assertThat(elector.holder().orElseThrow().owner()).isEqualTo(HoplockControl.RIVAL);
            assertThat(hoplock.clock().elapsed().minus(before)).as("within a renewal (TTL/3), not a TTL")
                    .isLessThanOrEqualTo(Duration.ofSeconds(10));

            hoplock.makeLeader(elector);
            assertThat(elector.isLeader()).isTrue();
            assertThat(elector.currentLease().orElseThrow().generation()).as("fencing token rises at each holder")
                    .isGreaterThan(first + 1);
            assertThat(LeaseRecordCodec.decode(hoplock.store().read("jobs/report", Duration.ofSeconds(1))
                    .orElseThrow().content()).owner()).as("the elector's own record").isEqualTo("me");
        }
    }

    @Test
    void theRivalStaysLeaderUntilReleasedHoweverLongTheTestWaits(TestHoplock hoplock) {
        try (Elector elector = hoplock.elector("jobs/report").owner("me").build()) {
            elector.start();
            hoplock.makeFollower(elector);
            hoplock.advance(Duration.ofHours(1));
            assertThat(elector.isLeader()).isFalse();
        }
    }

    @Test
    void aCrashedRivalIsTakenOverOnlyAfterTheElectorObservedItsRecordForATtl(TestHoplock hoplock) {
        Duration ttl = Duration.ofSeconds(30);
        Elector elector = hoplock.closeAtEnd(hoplock.elector("jobs/report").owner("me").ttl(ttl).build());
        elector.start();
        hoplock.makeFollower(elector);
        long rivals = elector.holder().orElseThrow().generation();

        Duration crashed = hoplock.clock().elapsed();
        hoplock.crashRival(elector);
        assertThat(elector.isLeader()).isTrue();
        assertThat(hoplock.clock().elapsed().minus(crashed)).as("not before a TTL of observation (E4)")
                .isGreaterThanOrEqualTo(ttl);
        assertThat(elector.currentLease().orElseThrow().generation()).isGreaterThan(rivals);
    }

    @Test
    void aLockHeldElsewhereIsRefusedAndFreedItIsTakenAtOnce(TestHoplock hoplock) {
        try (NamedLocks locks = hoplock.locks().owner("me").build()) {
            hoplock.holdLockElsewhere("report");
            AcquireResult refused = locks.tryAcquire("report", Duration.ofSeconds(30));
            assertThat(refused).isInstanceOf(AcquireResult.HeldByAnother.class);
            assertThat(((AcquireResult.HeldByAnother) refused).holder()).isEqualTo(HoplockControl.RIVAL);

            hoplock.freeLock("report");
            AcquireResult taken = locks.tryAcquire("report", Duration.ofSeconds(30));
            assertThat(taken).isInstanceOf(AcquireResult.Acquired.class);
        }
    }

    @Test
    void aHeldLockIsLostAtItsNextKeepAlive(TestHoplock hoplock) {
        try (NamedLocks locks = hoplock.locks().owner("me").build()) {
            LockHandle handle = ((AcquireResult.Acquired) locks.tryAcquire("report", Duration.ofSeconds(30))).handle();
            handle.keepAlive(Duration.ofSeconds(10));
            hoplock.advance(Duration.ofMinutes(2));
            assertThat(handle.isHeld()).as("kept alive").isTrue();

            hoplock.loseLock(handle);
            assertThat(handle.isHeld()).isFalse();
            assertThat(hoplock.control().isLockHeldElsewhere("report")).isTrue();
        }
    }

    @Test
    void aMemberLosesExactlyTheNamedKeysAndOwnsThemAgainWhenTheRivalLeaves(TestHoplock hoplock) {
        OwnershipGroup group = hoplock.closeAtEnd(hoplock.ownershipGroup("billing").memberId("me").build());
        group.start();
        hoplock.ownAllKeys(group, "tenant-1", "tenant-2", "tenant-3");

        hoplock.loseKeys(group, List.of("tenant-1", "tenant-3"), List.of("tenant-2"));
        assertThat(group.isOwner("tenant-1")).isFalse();
        assertThat(group.isOwner("tenant-3")).isFalse();
        assertThat(group.isOwner("tenant-2")).isTrue();
        assertThat(group.members().size()).isEqualTo(2);

        hoplock.ownAllKeys(group);
        assertThat(group.isOwner("tenant-1")).isTrue();
        assertThat(group.isOwner("tenant-3")).isTrue();
        assertThat(group.members().size()).isEqualTo(1);
    }

    @Test
    void aRecordOfAnotherRealHolderIsNeverTouched(TestHoplock hoplock) {
        try (Elector other = hoplock.elector("jobs/report").owner("other").build();
             Elector me = hoplock.elector("jobs/report").owner("me").build()) {
            other.start();
            hoplock.makeLeader(other);
            me.start();
            assertThatThrownBy(() -> hoplock.makeLeader(me)).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("held by 'other'");
            assertThat(other.isLeader()).isTrue();
        }
    }

    @Test
    void aWaitThatCannotSucceedFailsNamingWhatItAwaited(TestHoplock hoplock) {
        try (Elector elector = hoplock.elector("jobs/report").owner("me").build()) {
            // never started
            assertThatThrownBy(() -> hoplock.makeLeader(elector)).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("to lead").hasMessageContaining("virtual time");
        }
    }
}
