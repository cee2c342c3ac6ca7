/**
 * dev.hoplock.samples.leaderdemo: null is allowed only where {@code @Nullable} says so (checked by NullAway in the build).
 */
@NullMarked
package dev.hoplock.samples.leaderdemo;

import org.jspecify.annotations.NullMarked;
