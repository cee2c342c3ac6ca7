package dev.hoplock.bench.common;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a JMH {@code @Setup} method as the initializer of its state's fields: NullAway (which recognises any annotation
 * named {@code Initializer}) then checks that the method sets every non-null field, so the measured methods read them
 * without null checks. It guarantees nothing at run time; JMH calls the method before any measured one.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Initializer {
}
