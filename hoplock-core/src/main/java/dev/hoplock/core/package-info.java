/**
 * The value types every primitive shares: a {@link dev.hoplock.core.Lease} and its {@link dev.hoplock.core.Holder},
 * {@link dev.hoplock.core.InvalidSettingException} (every builder's refusal, naming the setting) and
 * {@link dev.hoplock.core.OwnerIds}. The primitives have a package each: {@link dev.hoplock.core.election} (the
 * elector), {@link dev.hoplock.core.lock} (named locks), {@link dev.hoplock.core.ownership} (per-key ownership); the
 * store SPI is {@link dev.hoplock.core.backend} with {@link dev.hoplock.core.record}, {@link dev.hoplock.core.time},
 * {@link dev.hoplock.core.fencing} and {@link dev.hoplock.core.json}. The packages under
 * {@code dev.hoplock.core.internal} are internal: not exported by the module, not an API.
 *
 * <p>Nullness: no method accepts or returns {@code null} unless it is annotated {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.core;

import org.jspecify.annotations.NullMarked;
