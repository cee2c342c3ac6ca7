package dev.hoplock.core.lock;

import dev.hoplock.core.backend.InMemoryBackend;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link Locks#keysByName()}: every name asked for, held or not, with its lease key (what the endpoint reads). */
class LockKeysByNameTest {

    @Test
    void everyNameAskedForIsKnownWithItsKey() {
        InMemoryBackend store = new InMemoryBackend();
        try (NamedLocks a = NamedLocks.builder(store).owner("a").keyPrefix("jobs/").build();
             NamedLocks b = NamedLocks.builder(store).owner("b").keyPrefix("jobs/").build()) {
            assertThat(a.keysByName()).isEmpty();
            assertThat(a.tryAcquire("nightly", Duration.ofSeconds(30))).isInstanceOf(AcquireResult.Acquired.class);
            assertThat(b.tryAcquire("nightly", Duration.ofSeconds(30))).isInstanceOf(AcquireResult.HeldByAnother.class);
            assertThat(b.tryAcquire("hourly", Duration.ofSeconds(30))).isInstanceOf(AcquireResult.Acquired.class);

            assertThat(a.keysByName()).containsExactlyEntriesOf(Map.of("nightly", "jobs/nightly"));
            assertThat(b.keysByName()).containsExactly(Map.entry("hourly", "jobs/hourly"),
                    Map.entry("nightly", "jobs/nightly"));
        }
    }
}
