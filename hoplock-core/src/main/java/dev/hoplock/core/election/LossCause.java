package dev.hoplock.core.election;

/** Why this process stopped leading. */
public enum LossCause {
    /** No renewal succeeded before the self-fencing deadline (store unreachable, slow, or failing). */
    DEADLINE_PASSED,
    /** The record changed under us: another node took the lease over. */
    TAKEN_OVER,
    /** The record disappeared from the store. */
    DELETED,
    /** This process stepped down on request ({@link Elector#stepDown()}), or its task ended its term. */
    STEPPED_DOWN,
    /** The elector was stopped ({@link Elector#close()}). */
    STOPPED
}
