package dev.hoplock.core.election;

/** What an elector is doing. */
public enum Role {
    /** Not started yet. */
    NEW,
    /** Holds a valid lease: leader work may run. */
    LEADER,
    /** Campaigning or watching another holder. */
    FOLLOWER,
    /** Closed. */
    STOPPED
}
