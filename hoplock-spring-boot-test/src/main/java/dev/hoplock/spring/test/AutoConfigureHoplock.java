package dev.hoplock.spring.test;

import org.springframework.test.context.ContextCustomizerFactories;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts the hoplock starter of a Spring test context on the in-memory store and registers the test support beans:
 * {@link HoplockTestControl} (make this instance leader or follower, let another instance hold a lock or free it, make
 * it own or lose keys) and {@link GateCalls} (which {@code @LeaderOnly} and {@code @WithLock} methods ran, which were
 * skipped).
 *
 * <p>What it sets, above the application's own configuration (its {@code application.properties} or yaml, its
 * profiles) but below the test's own properties ({@code @SpringBootTest(properties = ...)},
 * {@code @TestPropertySource(properties = ...)}):
 * <ul>
 *   <li>{@code hoplock.backend=memory}: each test context elects over its own in-memory store. (A {@code Backend}
 *       bean of the application still wins; the control then refuses to work and says so.)</li>
 *   <li>{@code hoplock.ttl} and, when an ownership group is configured, {@code hoplock.ownership.ttl} to
 *       {@link #ttl()}, so that a change the control makes shows within about a third of it.</li>
 * </ul>
 *
 * <h2>Virtual time</h2>
 * With {@code time = Time.VIRTUAL} every elector, the named locks and the ownership group member of the context run on
 * one {@link dev.hoplock.core.time.VirtualTime}: their clocks, their timers, and (on the thread that moves time) their
 * store requests and events. The test moves it with {@link HoplockTestControl#advance}: a lease that cannot be
 * renewed expires, a lock's {@code lockAtMostFor} or {@code lockAtLeastFor} passes, a member's TTL runs out, in no
 * real time and the same way at every run; the control's methods wait by advancing it too. Spring's own scheduling
 * does not follow it: {@code @Scheduled} methods and Spring's task scheduler run on real time, so a test calls the
 * gated method itself after advancing (and a {@code @Scheduled} method may still run, in real time, alongside).
 *
 * <p>Works with {@code @SpringBootTest} (and any Spring test context) on Spring Boot 3.5 and 4.x: it uses only Spring
 * Framework's {@link ContextCustomizerFactories}. Contexts with the same attributes are cached and shared as usual, so
 * a test that changes leadership should restore what the next test expects, or start from
 * {@link HoplockTestControl#makeLeader()} itself.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ContextCustomizerFactories(HoplockContextCustomizerFactory.class)
public @interface AutoConfigureHoplock {

    /** The TTL of every election (and of the ownership membership) in the test context; empty: the application's. */
    String ttl() default "3s";

    /**
     * The longest the control waits for an engine to report the state it was driven to: real time with
     * {@link Time#REAL}; with {@link Time#VIRTUAL} the control advances virtual time instead, up to 10 minutes of it or
     * this many seconds, whichever is longer.
     */
    long timeoutSeconds() default 20;

    /** Which time the context's hoplock engines run on: {@link Time#REAL} (the default) or {@link Time#VIRTUAL}. */
    Time time() default Time.REAL;

    /** The time the hoplock engines of a test context run on. */
    enum Time {
        /** The system clock and the engines' own threads, as in production. */
        REAL,
        /**
         * One {@link dev.hoplock.core.time.VirtualTime} per context, moved by the test
         * ({@link HoplockTestControl#advance}); starts at {@code 2026-01-01T00:00:00Z}.
         */
        VIRTUAL
    }
}
