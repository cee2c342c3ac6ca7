package dev.hoplock.core.backend;

/** The outcome of a conditional delete. */
public enum DeleteResult {
    /** The expected version was removed. */
    DELETED,
    /** The key holds another version; nothing was removed. */
    PRECONDITION_FAILED,
    /** The key does not exist; nothing was removed. */
    NOT_FOUND
}
