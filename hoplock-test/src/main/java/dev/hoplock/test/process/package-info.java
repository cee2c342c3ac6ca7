/**
 * A harness for tests that run electors in separate JVMs against a real store: {@link
 * dev.hoplock.test.process.ForkedJvm} starts a child JVM on the test's class path and reads its stdout lines,
 * {@link dev.hoplock.test.process.ElectorChildMain} is the body of such a child (an elector over a store that a
 * module says how to open, reporting what it saw as {@link dev.hoplock.test.process.KeyValueLine}s), and {@link
 * dev.hoplock.test.process.ElectorProcessesTest} is the failover test over three of them that a store module
 * extends.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.test.process;

import org.jspecify.annotations.NullMarked;
