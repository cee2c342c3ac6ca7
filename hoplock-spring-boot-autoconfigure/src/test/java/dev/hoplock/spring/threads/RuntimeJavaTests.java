package dev.hoplock.spring.threads;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tests of this module run on the JDK the build says: {@code hoplock.expected.java} is set by the surefire
 * execution that runs them on another JDK (the root pom's jdk25 executions), so a change of the build that quietly ran
 * them on the default JDK fails here. Without it, the default JDK of the build (17 or later).
 */
class RuntimeJavaTests {

    @Test
    void theTestsRunOnTheJdkTheBuildNames() {
        Integer expected = Integer.getInteger("hoplock.expected.java");
        if (expected == null) {
            assertThat(Runtime.version().feature()).as("the default JDK").isGreaterThanOrEqualTo(17);
        } else {
            assertThat(Runtime.version().feature()).as("the JDK of this execution").isEqualTo(expected);
        }
    }
}
