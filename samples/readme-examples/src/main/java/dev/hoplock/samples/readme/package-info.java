/**
 * dev.hoplock.samples.readme: null is allowed only where {@code @Nullable} says so (checked by NullAway in the build).
 */
@NullMarked
package dev.hoplock.samples.readme;

import org.jspecify.annotations.NullMarked;
