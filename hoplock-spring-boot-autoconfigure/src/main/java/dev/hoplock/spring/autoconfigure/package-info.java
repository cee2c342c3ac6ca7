/**
 * Spring Boot auto-configuration of hoplock: the auto-configurations, which only create and wire the types of
 * {@code hoplock-spring}, the shared {@code hoplock.*} properties
 * ({@link dev.hoplock.spring.autoconfigure.HoplockProperties}) and each feature's ({@code hoplock.locks.*},
 * {@code hoplock.ownership.*}), the choice of the store ({@link dev.hoplock.spring.autoconfigure.BackendType},
 * {@link dev.hoplock.spring.autoconfigure.ConditionalOnHoplockBackend}), the check of misspelled and ignored settings
 * and the failure analysis. Each store's configuration and settings are in a package of their own ({@code .s3},
 * {@code .jdbc}, {@code .elasticsearch}, {@code .filesystem}): no class of this package refers to a store module.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.autoconfigure;

import org.jspecify.annotations.NullMarked;
