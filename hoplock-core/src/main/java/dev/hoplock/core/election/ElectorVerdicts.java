package dev.hoplock.core.election;

import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.internal.lease.VerificationGate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the elector's E0 verdicts go ({@link VerificationGate}, the one gate of every lease user): a verified store is
 * one info log line with its capabilities; a refused one is one {@link ElectionEvent.Problem} of kind
 * {@link ElectionEvent.ProblemKind#CONDITIONAL_WRITES_NOT_SUPPORTED} and its error log line, naming the key and the
 * reason ({@link ProblemMessages#storeRefused}). Each is told at most once, by the gate.
 */
final class ElectorVerdicts implements VerificationGate.Verdicts {

    private static final Logger log = LoggerFactory.getLogger(Elector.class);

    private final String key;
    private final ProblemReporter problems;

    private ElectorVerdicts(String key, ProblemReporter problems) {
        this.key = key;
        this.problems = problems;
    }

    /** The E0 gate of the elector of {@code key}. */
    static VerificationGate gate(String key, boolean releaseByDelete, ProblemReporter problems) {
        return new VerificationGate(releaseByDelete, new ElectorVerdicts(key, problems));
    }

    @Override
    public void verified(StoreCapabilities capabilities) {
        log.info("hoplock: the store of '{}' is verified: {}", key, capabilities.summary());
    }

    @Override
    public void refused(String reason) {
        problems.reportError(ElectionEvent.ProblemKind.CONDITIONAL_WRITES_NOT_SUPPORTED, "verify",
                ProblemMessages.storeRefused(key, reason), null);
    }
}
