package dev.hoplock.core.lock;

/** Why an acquisition ended other than by its own release. */
public enum LockLossCause {
    /** The keep-alive ran, but no renewal succeeded before the local deadline. */
    KEEP_ALIVE_FAILED,
    /** The local deadline passed without keep-alive: the lock expired. */
    EXPIRED,
    /** The record was changed or removed by someone else (a renewal was refused). */
    TAKEN_OVER,
    /** The {@link Locks} instance was closed. */
    CLOSED
}
