/** The application the Spring Boot compatibility and AOT tests start. */
@NullMarked
package dev.hoplock.compat;

import org.jspecify.annotations.NullMarked;
