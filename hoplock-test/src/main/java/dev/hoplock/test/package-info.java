/**
 * Test kits for stores and electors: the contract every {@code Backend} must pass
 * ({@link dev.hoplock.test.BackendContractTest}) and the elector fuzz test ({@link dev.hoplock.test.ElectorFuzzTest}).
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.test;

import org.jspecify.annotations.NullMarked;
