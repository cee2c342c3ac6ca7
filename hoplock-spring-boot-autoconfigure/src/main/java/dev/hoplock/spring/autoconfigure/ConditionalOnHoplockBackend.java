package dev.hoplock.spring.autoconfigure;

import org.springframework.context.annotation.Conditional;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Matches when the store chosen by {@code hoplock.*} is {@link #value()}: {@code hoplock.backend} if set, otherwise
 * S3 when {@code hoplock.s3.bucket} is set or the filesystem when {@code hoplock.filesystem.directory} is set
 * (not both).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Documented
@Conditional(OnHoplockBackendCondition.class)
public @interface ConditionalOnHoplockBackend {

    /** The store this configuration creates. */
    BackendType value();
}
