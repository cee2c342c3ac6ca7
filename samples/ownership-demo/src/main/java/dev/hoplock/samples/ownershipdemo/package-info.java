/**
 * dev.hoplock.samples.ownershipdemo: null is allowed only where {@code @Nullable} says so (checked by NullAway in the build).
 */
@NullMarked
package dev.hoplock.samples.ownershipdemo;

import org.jspecify.annotations.NullMarked;
