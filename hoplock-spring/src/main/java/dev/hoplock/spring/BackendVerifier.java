package dev.hoplock.spring;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;

/**
 * A check that a store keeps the compare-and-swap contract, run once before the electors start campaigning (for S3:
 * the conditional-write probe). Electors start only after every applicable verifier passed.
 */
public interface BackendVerifier {

    /** Whether this verifier knows how to check {@code backend}. */
    boolean appliesTo(Backend backend);

    /**
     * Checks {@code backend}; returns normally when it passed.
     *
     * @throws BackendException of kind {@link BackendException.Kind#CONDITIONAL_WRITES_NOT_SUPPORTED} when the store
     *                          refused the check (the electors then never start), any other kind when the store could
     *                          not be asked (the check is retried)
     */
    void verify(Backend backend) throws BackendException;
}
