/**
 * hoplock's test support for applications, without Spring: the JUnit 5 extension ({@link dev.hoplock.junit.HoplockExtension}),
 * the in-memory store and virtual time it gives a test ({@link dev.hoplock.junit.TestHoplock}), and the control that
 * moves leadership, locks and key ownership through that store ({@link dev.hoplock.junit.HoplockControl}). Reads
 * hoplock-core's API only.
 */
module dev.hoplock.junit {
    requires transitive dev.hoplock.core;
    requires transitive org.junit.jupiter.api;

    exports dev.hoplock.junit;
}
