/**
 * Leadership events as Spring application events, republished from each elector.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.event;

import org.jspecify.annotations.NullMarked;
