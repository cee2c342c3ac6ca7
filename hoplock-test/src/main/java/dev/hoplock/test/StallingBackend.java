package dev.hoplock.test;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;
import org.jspecify.annotations.Nullable;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;

/**
 * The backend under test as one elector of a fuzz run sees it: every call goes to the real backend unchanged, but
 * may be held back before it is sent (the request lands late) or after the real answer (the answer comes late, so a
 * write's outcome is unknown to the elector). While {@link #stalling(boolean) stalling}, each of the two happens with
 * a chance of {@link #STALL_PERCENT} percent; seven stalls in ten last up to a sixth of {@code maxStall}, the others
 * up to {@code maxStall}. A {@link #freezeUntil(CountDownLatch) frozen} backend holds every call at both points. The
 * stalls run on the elector's I/O threads, as a slow network would.
 *
 * <p>It also records every write the real backend reported as {@link WriteResult.Written}: the writer (this
 * elector), the generation in the written record, and {@link System#nanoTime()} just before the real call and just
 * after its answer. The store took the write at one instant between those two readings (the {@link Backend}
 * contract's linearisability), which is what {@link FuzzChecker} relies on. A call that throws is not recorded: its
 * outcome is unknown, and leaving a write out only weakens the check.
 */
final class StallingBackend implements Backend {

    /** The chance, in percent, that a call is held back before it is sent, and independently after its answer. */
    static final int STALL_PERCENT = 8;

    private final Backend delegate;
    private final String writer;
    private final Random random;
    private final Duration maxStall;
    private final FuzzJournal journal;
    private volatile boolean stalling;
    private volatile @Nullable CountDownLatch frozenUntil;

    StallingBackend(Backend delegate, String writer, Random random, Duration maxStall, FuzzJournal journal) {
        this.delegate = delegate;
        this.writer = writer;
        this.random = random;
        this.maxStall = maxStall;
        this.journal = journal;
    }

    /** From now on, every call blocks before it is sent and before its answer is handed back until {@code thaw}. */
    void freezeUntil(CountDownLatch thaw) {
        this.frozenUntil = thaw;
    }

    /** Switches the stalls on or off. */
    void stalling(boolean on) {
        this.stalling = on;
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        holdBack();
        Optional<StoredObject> result = delegate.read(key, timeout);
        holdBack();
        return result;
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        holdBack();
        long called = System.nanoTime();
        WriteResult result = delegate.write(key, expected, content, timeout);
        long answered = System.nanoTime();
        if (result instanceof WriteResult.Written) {
            recordWrite(content, called, answered);
        }
        holdBack();
        return result;
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        holdBack();
        DeleteResult result = delegate.delete(key, expected, timeout);
        holdBack();
        return result;
    }

    /** Forwarded: the store's own verification (the S3 probe) must run through any wrapper. */
    @Override
    public StoreCapabilities verify() throws BackendException {
        return delegate.verify();
    }

    @Override
    public String describe() {
        return delegate.describe();
    }

    private void holdBack() {
        CountDownLatch thaw = frozenUntil;
        if (thaw != null) {
            Pauses.awaitUninterruptibly(thaw);
        }
        if (!stalling || random.nextInt(100) >= STALL_PERCENT) {
            return;
        }
        journal.backendStalls.incrementAndGet();
        // Mostly short stalls (the answer is late but within the request timeout), sometimes long ones (the elector
        // gives up on the request, or the request lands after the elector's deadline).
        long shortStall = maxStall.toNanos() / 6;
        long stall = random.nextInt(10) < 7 ? (long) (random.nextDouble() * shortStall)
                : shortStall + (long) (random.nextDouble() * (maxStall.toNanos() - shortStall));
        Pauses.sleepUninterruptibly(Duration.ofNanos(stall));
    }

    private void recordWrite(byte[] content, long called, long answered) {
        try {
            LeaseRecord record = LeaseRecordCodec.decode(content);
            journal.written(new FuzzJournal.StoreWrite(writer, record.generation(), record.isReleased(), called,
                    answered));
        } catch (MalformedLeaseRecordException e) {
            journal.failed(writer + " wrote a record that does not parse: " + e.getMessage());
        }
    }
}
