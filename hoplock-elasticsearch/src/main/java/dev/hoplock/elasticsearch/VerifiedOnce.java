package dev.hoplock.elasticsearch;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.StoreCapabilities;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start-up check of one backend, run once: {@link ElasticsearchBackend#verify()} answers every call after the
 * first that passed from that answer, without a request, so that the builder's check and the elector's (rule 0) do
 * not probe the cluster twice and the check's INFO lines appear once per backend.
 *
 * <p>Guarantees: the check runs until it passes once, and never again on this instance after that; a check that
 * failed is not remembered, so the next call runs it again. Calls at the same time wait for one run. Thread-safe.
 */
final class VerifiedOnce {

    /** The check itself: {@link StartupCheck#run()} and what it shows. */
    @FunctionalInterface
    interface Check {
        StoreCapabilities run() throws BackendException;
    }

    private static final Logger log = LoggerFactory.getLogger(StartupCheck.class);

    private final Check check;
    private @Nullable StoreCapabilities passed;

    VerifiedOnce(Check check) {
        this.check = check;
    }

    /** The answer of the check that passed, running it first if none has. */
    synchronized StoreCapabilities get() throws BackendException {
        StoreCapabilities known = passed;
        if (known != null) {
            log.debug("{} passed its start-up check already; not probing again", known.store());
            return known;
        }
        known = check.run();
        passed = known;
        return known;
    }
}
