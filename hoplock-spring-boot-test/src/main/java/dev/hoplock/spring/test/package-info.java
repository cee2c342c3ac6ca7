/**
 * Test support for Spring Boot applications that use the hoplock starter: {@link dev.hoplock.spring.test.AutoConfigureHoplock}
 * puts a test context on the in-memory store and registers {@link dev.hoplock.spring.test.HoplockTestControl} (this
 * instance leader or follower, a lock held elsewhere or free, keys owned or lost, through the store and the real
 * engines) and {@link dev.hoplock.spring.test.GateCalls} (which gated methods ran and which were skipped). Spring
 * Framework's test context API only, no Spring Boot type: the same classes serve Spring Boot 3.5 and 4.x.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.test;

import org.jspecify.annotations.NullMarked;
