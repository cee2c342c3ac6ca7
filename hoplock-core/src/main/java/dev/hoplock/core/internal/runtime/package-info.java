/**
 * Internal, not an API (the module does not export it): where an engine runs, shared by the elector, the named locks
 * and ownership. {@link dev.hoplock.core.internal.runtime.EngineRuntime} (the store, clocks, scheduler and executors an
 * engine's builder collects, and the threads it starts and stops), {@link dev.hoplock.core.internal.runtime.LoopTimers}
 * (timers that fall back to another thread when the scheduler refuses) and
 * {@link dev.hoplock.core.internal.runtime.ListenerFanOut} (listeners called one by one, a failing one logged and
 * skipped). A type is public only because another core package uses it.
 *
 * <p>Nullness: no method accepts or returns {@code null} unless it is annotated {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.core.internal.runtime;

import org.jspecify.annotations.NullMarked;
