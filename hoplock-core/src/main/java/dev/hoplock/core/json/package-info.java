/**
 * The small part of JSON hoplock needs, without a JSON library: {@link dev.hoplock.core.json.Json} parses whole
 * documents (lease records, a store's answers) and writes JSON strings. Shared by the lease record codec and the
 * store modules, so that there is one parser with one set of rules.
 *
 * <p>Nullness: no method accepts or returns {@code null} unless it is annotated {@code @Nullable} (JSON's
 * {@code null} is a Java {@code null} in a parsed tree).
 */
@NullMarked
package dev.hoplock.core.json;

import org.jspecify.annotations.NullMarked;
