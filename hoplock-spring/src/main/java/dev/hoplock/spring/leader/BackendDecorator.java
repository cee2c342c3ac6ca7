package dev.hoplock.spring.leader;

import dev.hoplock.core.backend.Backend;

/**
 * Wraps the store of one election, for example to time or count its requests
 * ({@link dev.hoplock.spring.leader.MeteredBackend}). Every bean of this type is applied to every election's
 * backend, in {@link org.springframework.core.Ordered} order (the first decorator is the innermost wrapper).
 *
 * <p>A decorator must keep the {@link Backend} contract: it may observe calls, never change their outcome. It must
 * forward {@link Backend#verify()} and {@link Backend#describe()} too: the elector verifies the store through the
 * decorated backend before it campaigns, and the default {@code verify()} checks nothing.
 */
@FunctionalInterface
public interface BackendDecorator {

    /** Returns a backend for {@code election} that delegates to {@code backend}. */
    Backend decorate(String election, Backend backend);
}
