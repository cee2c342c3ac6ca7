package dev.hoplock.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The fuzz run has teeth: over a store that breaks the contract, it reports two leaders. The broken store forgets
 * everything (a read finds nothing) and accepts every write, so every elector creates generation 1 and renews it for
 * ever: all of them lead at once, every time, whatever the timing.
 */
class ElectorFuzzTeethTest {

    @Test
    void aStoreWithoutConditionalWritesIsCaught() throws Exception {
        FuzzRun.Settings settings = new FuzzRun.Settings("hoplock-fuzz/teeth/lease", 3, Duration.ofMillis(600),
                Duration.ofSeconds(2), Duration.ofSeconds(30), 3, 42);

        FuzzRun.Report report = new FuzzRun(settings, new ForgetfulBackend()).run();

        assertThat(report.allViolations()).as(report.summary())
                .anyMatch(v -> v.contains("generation 1 was led by two electors"))
                .anyMatch(v -> v.contains("two leaders at once"))
                .anyMatch(v -> v.contains("generation 1 was acquired twice"))
                .anyMatch(v -> v.contains("must rise at every change of writer"));
    }

    /** Reads find nothing; every write succeeds. */
    private static final class ForgetfulBackend implements Backend {
        private final AtomicLong versions = new AtomicLong();

        @Override
        public Optional<StoredObject> read(String key, Duration timeout) {
            return Optional.empty();
        }

        @Override
        public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) {
            return WriteResult.written(Handle.of("v" + versions.incrementAndGet()));
        }

        @Override
        public DeleteResult delete(String key, Handle expected, Duration timeout) {
            return DeleteResult.DELETED;
        }
    }
}
