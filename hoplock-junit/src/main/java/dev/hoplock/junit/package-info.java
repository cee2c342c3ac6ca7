/**
 * Test support for applications that use hoplock: {@link dev.hoplock.junit.HoplockExtension} gives a JUnit 5 test a
 * {@link dev.hoplock.junit.TestHoplock} (an in-memory store, virtual time, builders wired to both), and
 * {@link dev.hoplock.junit.HoplockControl} makes this instance leader or follower, lets another instance hold a named
 * lock or frees it, and makes it own or lose keys, through the store and the real engines.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.junit;

import org.jspecify.annotations.NullMarked;
