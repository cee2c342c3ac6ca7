package dev.hoplock.core.internal.lease;

import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.record.LeaseRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** Rule 5 (unknown outcomes) on its own. */
class UnknownWritesTest {

    private static final Instant EXPIRES = Instant.parse("2026-12-01T10:00:30Z");
    private static final Duration TTL = Duration.ofSeconds(30);
    private final UnknownWrites writes = new UnknownWrites();

    @Test
    void aWriteIsAdoptedOnlyWhenOwnerGenerationAndNonceAllMatch() {
        LeaseRecord mine = new LeaseRecord(3, EXPIRES, "a", "nonce-1");
        writes.remember(mine, 42, TTL);
        assertThat(writes.provablyOurs(new LeaseRecord(3, EXPIRES.plusSeconds(1), "a", "nonce-2"))).isNull();
        assertThat(writes.provablyOurs(new LeaseRecord(4, EXPIRES, "a", "nonce-1"))).isNull();
        assertThat(writes.provablyOurs(new LeaseRecord(3, EXPIRES, "b", "nonce-1"))).isNull();
        assertThat(writes.provablyOurs(mine)).isEqualTo(new UnknownWrites.Write(mine, 42, TTL));
    }

    @Test
    void aWriteWithoutNonceIsNeverAdopted() {
        LeaseRecord noNonce = new LeaseRecord(3, EXPIRES, "a", "");
        writes.remember(noNonce, 1, TTL);
        assertThat(writes.provablyOurs(noNonce)).isNull();
    }

    @Test
    void aRefusalRemembersTheHeldVersionAndTheRefusedWrite() {
        LeaseRecord held = new LeaseRecord(3, EXPIRES, "a", "held");
        LeaseRecord refused = new LeaseRecord(3, EXPIRES.plusSeconds(10), "a", "refused");
        writes.refused(new Owned(Handle.of("\"h\""), held, 5, TTL), refused, 9, TTL);
        assertThat(writes.provablyOurs(held)).isEqualTo(new UnknownWrites.Write(held, 5, TTL));
        assertThat(writes.provablyOurs(refused)).isEqualTo(new UnknownWrites.Write(refused, 9, TTL));
        writes.refused(null, refused, 11, TTL);
        assertThat(writes.isEmpty()).isFalse();
    }

    /**
     * Issue 19, the adoption-TTL finding: each write keeps the TTL it was written with, the held version behind a
     * refusal too, however many writes came after it; an adoption never has to guess it from the call that finds it.
     */
    @Test
    void eachWriteKeepsItsOwnTtlAndARefusalKeepsTheHeldVersionsTtl() {
        LeaseRecord held = new LeaseRecord(3, EXPIRES, "a", "short");
        for (int i = 0; i < UnknownWrites.MAX_REMEMBERED - 2; i++) {
            writes.remember(new LeaseRecord(3, EXPIRES, "a", "later-" + i), i, Duration.ofSeconds(60));
        }
        LeaseRecord refused = new LeaseRecord(3, EXPIRES.plusSeconds(60), "a", "long");
        writes.refused(new Owned(Handle.of("\"h\""), held, 1, Duration.ofSeconds(2)), refused, 99,
                Duration.ofSeconds(60));
        assertThat(writes.provablyOurs(held)).isEqualTo(new UnknownWrites.Write(held, 1, Duration.ofSeconds(2)));
        assertThat(writes.provablyOurs(refused)).isEqualTo(new UnknownWrites.Write(refused, 99, Duration.ofSeconds(60)));
    }

    @Test
    void anotherWritersVersionEndsEveryAdoption() {
        LeaseRecord mine = new LeaseRecord(3, EXPIRES, "a", "n");
        writes.remember(mine, 1, TTL);
        writes.otherWriterSeen();
        assertThat(writes.isEmpty()).isTrue();
        assertThat(writes.provablyOurs(mine)).isNull();
    }

    @Test
    void onlyTheNewestWritesAreRemembered() {
        for (int i = 0; i <= UnknownWrites.MAX_REMEMBERED; i++) {
            writes.remember(new LeaseRecord(i + 1, EXPIRES, "a", "n" + i), i, TTL);
        }
        assertThat(writes.provablyOurs(new LeaseRecord(1, EXPIRES, "a", "n0"))).isNull();
        assertThat(writes.provablyOurs(new LeaseRecord(2, EXPIRES, "a", "n1"))).isNotNull();
        writes.settled();
        assertThat(writes.isEmpty()).isTrue();
    }
}
