package dev.hoplock.core.lock;

import java.time.Duration;
import java.time.Instant;

/** What happened to a lock of one {@link Locks} instance; delivered to {@link Locks#addListener} listeners. */
public sealed interface LockEvent {

    /** The lock's name. */
    String name();

    /** The acquisition's fencing token. */
    long token();

    /** When it happened, by this machine's wall clock. */
    Instant at();

    /** A new acquisition. */
    record Acquired(String name, long token, Instant at, Instant expiresAt) implements LockEvent {
    }

    /** An acquisition was extended (a keep-alive renewal or a repeated acquire by the same instance). */
    record Extended(String name, long token, Instant at, Instant expiresAt) implements LockEvent {
    }

    /** An attempt found the lock held by another owner or the store unavailable. */
    record Refused(String name, long token, Instant at, AcquireResult answer) implements LockEvent {
    }

    /** An acquisition ended by its release. {@code heldFor} is measured on the monotonic clock. */
    record Released(String name, long token, Instant at, Duration heldFor, ReleaseOutcome outcome) implements LockEvent {
    }

    /** An acquisition ended other than by its release. */
    record Lost(String name, long token, Instant at, Duration heldFor, LockLossCause cause, String detail)
            implements LockEvent {
    }
}
