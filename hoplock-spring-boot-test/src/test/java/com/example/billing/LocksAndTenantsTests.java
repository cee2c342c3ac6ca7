package com.example.billing;

import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.NamedLocks;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.junit.HoplockExtension;
import dev.hoplock.junit.TestHoplock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(HoplockExtension.class)
class LocksAndTenantsTests {

    @Test
    void aLockHeldElsewhereIsRefusedUntilFreed(TestHoplock hoplock) {
        NamedLocks locks = hoplock.closeAtEnd(hoplock.locks().build());
        hoplock.holdLockElsewhere("exports");
        assertThat(locks.tryAcquire("exports", Duration.ofMinutes(1))).isInstanceOf(AcquireResult.HeldByAnother.class);

        hoplock.freeLock("exports");
        assertThat(locks.tryAcquire("exports", Duration.ofMinutes(1))).isInstanceOf(AcquireResult.Acquired.class);
    }

    @Test
    void aTenantMovesToAnotherMemberAndBack(TestHoplock hoplock) {
        OwnershipGroup group = hoplock.closeAtEnd(hoplock.ownershipGroup("billing").memberId("node-1").build());
        group.start();
        hoplock.ownAllKeys(group, "tenant-a", "tenant-b");   // a new group owns nothing for its first TTL

        hoplock.loseKeys(group, List.of("tenant-a"), List.of("tenant-b"));
        assertThat(group.isOwner("tenant-a")).isFalse();
        assertThat(group.isOwner("tenant-b")).isTrue();

        hoplock.ownAllKeys(group);
        assertThat(group.isOwner("tenant-a")).isTrue();
    }
}
