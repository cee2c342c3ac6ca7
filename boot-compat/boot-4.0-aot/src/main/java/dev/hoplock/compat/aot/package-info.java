/**
 * The compatibility application under one name per store, for Spring AOT: {@code spring-boot:process-aot} fixes the
 * store when it processes an application (the {@code hoplock.backend} condition is evaluated at build time, as every
 * condition is), so this module processes the application once per store, each under the name of one of these main
 * classes, and {@code AotStoresTests} starts it under that name.
 */
@NullMarked
package dev.hoplock.compat.aot;

import org.jspecify.annotations.NullMarked;
