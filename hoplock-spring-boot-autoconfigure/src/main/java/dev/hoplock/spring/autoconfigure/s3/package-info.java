/**
 * The S3 store in a Spring Boot application, {@code hoplock.backend=s3}: its configuration
 * ({@link dev.hoplock.spring.autoconfigure.s3.S3BackendConfiguration}), its settings {@code hoplock.s3.*}
 * ({@link dev.hoplock.spring.autoconfigure.s3.S3Properties}) and the building of the store from them. Only this
 * package of the auto-configuration refers to {@code dev.hoplock:hoplock-s3}, and nothing here is loaded without it.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.autoconfigure.s3;

import org.jspecify.annotations.NullMarked;
