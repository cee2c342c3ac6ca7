package dev.hoplock.spring.fencing;

import dev.hoplock.core.election.LeaderContext;
import dev.hoplock.core.lock.NamedLocks;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.fencing.Fence;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.spring.leader.LeaderContextHolder;
import dev.hoplock.spring.lock.LockContextHolder;
import dev.hoplock.spring.fencing.FencedInterceptorTest.Writer;
import dev.hoplock.spring.ownership.OwnershipScope;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 19, "tokens repeat after an outside delete": {@code @Fenced} names the holder of its token, so that a fence
 * that records holders refuses an equal token of another holder. The starter's composite source
 * ({@link FirstTokenSource} of {@code @WithLock} then {@code @LeaderOnly}) must answer the holder from the source whose
 * token it answers: the lock's owner inside a {@code @WithLock} call (even within a {@code @LeaderOnly} call), the
 * elector lease's owner in a {@code @LeaderOnly} call, and the ownership group's process owner (not the member id, which
 * a new process may reuse) in a {@code @LeaderOnly(key = ...)} call. The fence here records what it is asked.
 */
class FencedHolderTest {

    private final List<String> events = new ArrayList<>();
    private final InMemoryBackend store = new InMemoryBackend();
    private final List<NamedLocks> opened = new ArrayList<>();

    private final Fence recordingFence = new Fence() {
        @Override
        public void check(String resource, long token) {
            check(resource, token, "");
        }

        @Override
        public void check(String resource, long token, String holder) {
            events.add("checked " + resource + "@" + token + " by '" + holder + "'");
        }
    };

    private final Writer writer = FencingFixtures.fencedWriter(events, recordingFence,
            FencingFixtures.startersTokens());

    @AfterEach
    void clear() {
        TransactionSynchronizationManager.setActualTransactionActive(false);
        opened.forEach(NamedLocks::close);
    }

    @Test
    void aLeaderOnlyCallIsCheckedWithItsLeasesOwner() {
        TransactionSynchronizationManager.setActualTransactionActive(true);
        FencingFixtures.writeIn(writer, FencingFixtures.leader("host-a:1:x1", 4));
        assertThat(events).containsExactly("checked invoices@4 by 'host-a:1:x1'", "body");
    }

    @Test
    void aKeyedCallIsCheckedWithTheProcessOwnerNotTheMemberId() {
        TransactionSynchronizationManager.setActualTransactionActive(true);
        FencingFixtures.writeIn(writer,
                new OwnershipScope("billing", "member-a", "host-a:1:x1", new FencingFixtures.Claim("org-1", 3)));
        assertThat(events).containsExactly("checked invoices/org-1@3 by 'host-a:1:x1'", "body");
    }

    @Test
    void aWithLockCallInsideALeaderOnlyCallIsCheckedWithTheLocksTokenAndOwner() {
        NamedLocks locks = NamedLocks.builder(store).owner("locker:7:y").build();
        opened.add(locks);
        LockHandle lock = ((AcquireResult.Acquired) locks.tryAcquire("export", Duration.ofSeconds(30))).handle();
        TransactionSynchronizationManager.setActualTransactionActive(true);
        LeaderContext previousLeader = LeaderContextHolder.enter(FencingFixtures.leader("host-a:1:x1", 9));
        LockHandle previousLock = LockContextHolder.enter(lock);
        try {
            writer.write();
        } finally {
            LockContextHolder.restore(previousLock);
            LeaderContextHolder.restore(previousLeader);
            lock.release();
        }
        assertThat(events).containsExactly("checked invoices@" + lock.token() + " by 'locker:7:y'", "body");
    }
}
