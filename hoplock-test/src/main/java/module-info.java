/**
 * hoplock's kits for testing a store or an application: the contract and fuzz tests every store passes, and the fakes
 * and process helpers they use. Exports its two packages; it reads hoplock-core's API only.
 */
module dev.hoplock.test {
    requires transitive dev.hoplock.core;
    requires transitive org.junit.jupiter.api;
    requires transitive org.junit.jupiter.params;
    requires transitive org.assertj.core;
    requires awaitility;

    exports dev.hoplock.test;
    exports dev.hoplock.test.process;
    // JUnit calls the kits' test methods (some package-private) by reflection.
    opens dev.hoplock.test to org.junit.platform.commons;
}
