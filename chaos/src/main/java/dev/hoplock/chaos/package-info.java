/**
 * The chaos harness: runs hoplock nodes as separate processes behind fault-injecting proxies, records every write
 * with its fencing token and checks that no two nodes acted as holder at once.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.chaos;

import org.jspecify.annotations.NullMarked;
