package dev.hoplock.junit;

import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.NamedLocks;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.core.time.TimeSource;
import dev.hoplock.core.time.VirtualTime;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One test's hoplock: a fresh {@link InMemoryBackend}, a clock, builders of the three engines wired to both, and the
 * {@link HoplockControl} over them. {@link HoplockExtension} gives one to each test; {@link #virtualTime()} and
 * {@link #realTime(Duration)} make one by hand.
 *
 * <p>In virtual time (the default of the extension) every engine built from {@link #elector}, {@link #locks} or
 * {@link #ownershipGroup} runs on the test's thread: its timers on {@link #clock()}, its store requests and its
 * events inline, so nothing happens between two calls of the test but what {@link #advance} and the control's waits
 * run. A TTL of 30 s then passes in microseconds, and every run is the same. In real time the engines run on their own
 * threads and the control waits for them in real time.
 *
 * <p>Guarantees: {@link #close()} (the extension calls it after each test) closes the engines given to
 * {@code closeAtEnd}, then makes every rival member leave. In virtual time, close an ownership group through
 * {@code closeAtEnd} rather than {@code close()}: its graceful leave runs on the virtual clock, which only
 * {@code closeAtEnd} advances (a plain {@code close()} waits for it in real time, then gives up with a warning).
 */
public final class TestHoplock implements AutoCloseable {

    /** Where virtual time starts. */
    public static final Instant VIRTUAL_START = Instant.parse("2026-01-01T00:00:00Z");

    private final InMemoryBackend store = new InMemoryBackend();
    private final @Nullable VirtualTime virtualTime;
    private final HoplockControl control;
    private final Waits waits;
    private final List<Runnable> closing = new ArrayList<>();

    private TestHoplock(@Nullable VirtualTime virtualTime, Waits waits) {
        this.virtualTime = virtualTime;
        this.waits = waits;
        TimeSource time = virtualTime == null ? TimeSource.system() : virtualTime;
        this.control = new HoplockControl(store, time, waits, "locks/", virtualTime);
    }

    /** Engines in virtual time from {@link #VIRTUAL_START}; the control waits up to 10 minutes of virtual time. */
    public static TestHoplock virtualTime() {
        VirtualTime time = new VirtualTime(VIRTUAL_START);
        return new TestHoplock(time, Waits.virtualTime(time, Duration.ofMinutes(10)));
    }

    /** Engines in real time; the control waits up to {@code limit}. */
    public static TestHoplock realTime(Duration limit) {
        return new TestHoplock(null, Waits.realTime(limit));
    }

    /** The in-memory store of this test, shared by every engine built here and by the control. */
    public InMemoryBackend store() {
        return store;
    }

    /** Whether the engines built here run in virtual time. */
    public boolean isVirtualTime() {
        return virtualTime != null;
    }

    /** The virtual clock and scheduler of the engines built here. */
    public VirtualTime clock() {
        VirtualTime time = virtualTime;
        if (time == null) {
            throw new IllegalStateException("this TestHoplock runs in real time, so it has no virtual clock: use"
                    + " TestHoplock.virtualTime() (or the extension's default, new HoplockExtension())");
        }
        return time;
    }

    /** Moves virtual time forward by {@code duration}, running every timer that falls due, on this thread. */
    public void advance(Duration duration) {
        clock().advance(duration);
    }

    /** A builder of an elector over this test's store, on its clock (not started: call {@code start()}). */
    public Elector.Builder elector(String key) {
        Elector.Builder builder = Elector.builder(store, key);
        VirtualTime time = virtualTime;
        if (time != null) {
            builder.timeSource(time).scheduler(time).ioExecutor(Runnable::run).eventExecutor(Runnable::run);
        }
        return builder;
    }

    /** A builder of named locks over this test's store, on its clock, with the default key prefix {@code locks/}. */
    public NamedLocks.Builder locks() {
        NamedLocks.Builder builder = NamedLocks.builder(store);
        VirtualTime time = virtualTime;
        if (time != null) {
            builder.timeSource(time).scheduler(time).ioExecutor(Runnable::run).eventExecutor(Runnable::run);
        }
        return builder;
    }

    /** A builder of a member of ownership group {@code group} over this test's store, on its clock (not started). */
    public OwnershipGroup.Builder ownershipGroup(String group) {
        OwnershipGroup.Builder builder = OwnershipGroup.builder(store, group);
        VirtualTime time = virtualTime;
        if (time != null) {
            builder.timeSource(time).scheduler(time).ioExecutor(Runnable::run).eventExecutor(Runnable::run);
        }
        return builder;
    }

    /** The control over this test's store. */
    public HoplockControl control() {
        return control;
    }

    /** {@link HoplockControl#makeLeader}. */
    public void makeLeader(Elector elector) {
        control.makeLeader(elector);
    }

    /** {@link HoplockControl#makeFollower}. */
    public void makeFollower(Elector elector) {
        control.makeFollower(elector);
    }

    /** {@link HoplockControl#crashRival}. */
    public void crashRival(Elector elector) {
        control.crashRival(elector);
    }

    /** {@link HoplockControl#holdLockElsewhere}. */
    public void holdLockElsewhere(String name) {
        control.holdLockElsewhere(name);
    }

    /** {@link HoplockControl#freeLock}. */
    public void freeLock(String name) {
        control.freeLock(name);
    }

    /** {@link HoplockControl#loseLock}. */
    public void loseLock(LockHandle handle) {
        control.loseLock(handle);
    }

    /** {@link HoplockControl#loseKeys}. */
    public void loseKeys(OwnershipGroup group, Collection<String> lost, Collection<String> kept) {
        control.loseKeys(group, lost, kept);
    }

    /** {@link HoplockControl#loseKey}. */
    public void loseKey(OwnershipGroup group, String key) {
        control.loseKey(group, key);
    }

    /** {@link HoplockControl#ownAllKeys}. */
    public void ownAllKeys(OwnershipGroup group, String... keys) {
        control.ownAllKeys(group, keys);
    }

    /**
     * Closes {@code elector} when this {@code TestHoplock} closes (after the test, with the extension), before the
     * rivals leave; in virtual time by advancing the clock until it has stopped.
     */
    public Elector closeAtEnd(Elector elector) {
        closing.add(() -> stop(elector.closeAsync(), "the elector of '" + elector.key() + "'"));
        return elector;
    }

    /** Closes {@code group} (it leaves gracefully) when this {@code TestHoplock} closes; see {@link #closeAtEnd(Elector)}. */
    public OwnershipGroup closeAtEnd(OwnershipGroup group) {
        closing.add(() -> stop(group.closeAsync(), "member '" + group.self().id() + "' of '" + group.group() + "'"));
        return group;
    }

    /** Closes {@code locks} (releasing what they hold) when this {@code TestHoplock} closes. */
    public NamedLocks closeAtEnd(NamedLocks locks) {
        closing.add(locks::close);
        return locks;
    }

    /** Closes the engines given to {@code closeAtEnd} (last first), then makes every rival member leave its group. */
    @Override
    public void close() {
        try {
            for (int i = closing.size() - 1; i >= 0; i--) {
                closing.get(i).run();
            }
        } finally {
            closing.clear();
            control.close();
        }
    }

    private void stop(CompletableFuture<Void> stopped, String what) {
        if (virtualTime == null) {
            stopped.join();
        } else {
            waits.until(stopped::isDone, what + " to stop", () -> "still stopping");
        }
    }
}
