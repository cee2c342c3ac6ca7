/**
 * {@code hoplock-cli}: a runnable jar for operators. {@code show <key>} prints who holds a lease key;
 * {@code release <key>} frees a stuck record safely ({@link dev.hoplock.core.operations.StuckLeaseRelease}). It reads
 * the starter's {@code hoplock.*} settings and builds the store with the starter's own auto-configuration, so every
 * store the starter supports works, configured the same way. Exit codes: {@link ExitCode}.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.cli;

import org.jspecify.annotations.NullMarked;
