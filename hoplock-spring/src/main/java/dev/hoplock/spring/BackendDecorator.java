package dev.hoplock.spring;

import dev.hoplock.core.backend.Backend;

/**
 * Wraps the store of one election, for example to time or count its requests
 * ({@link dev.hoplock.spring.metrics.MeteredBackend}). Every bean of this type is applied to every election's
 * backend, in {@link org.springframework.core.Ordered} order (the first decorator is the innermost wrapper).
 *
 * <p>A decorator must keep the {@link Backend} contract: it may observe calls, never change their outcome.
 */
@FunctionalInterface
public interface BackendDecorator {

    /** Returns a backend for {@code election} that delegates to {@code backend}. */
    Backend decorate(String election, Backend backend);
}
