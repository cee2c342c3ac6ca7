package dev.hoplock.core.election;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoreNotCapableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.Optional;

/**
 * Rule 0 of the {@link Elector}'s safety argument, <em>campaign only on a verified store</em>: the state machine
 * {@link StoreVerification#VERIFYING} → {@link StoreVerification#VERIFIED} or {@link StoreVerification#REFUSED}, fed
 * with the answers of {@link dev.hoplock.core.backend.AsyncBackend#verify()}.
 *
 * <p>Guarantees: {@link #allowsCampaign()} is true only after a verification answered capabilities that pass
 * {@link StoreCapabilities#requireFor(boolean)} for this elector's release mode. Only the store's verdict is final: a
 * missing capability (in the answer, or thrown as {@link BackendException.Kind#CONDITIONAL_WRITES_NOT_SUPPORTED}, such
 * as a 501 to a conditional request) makes it {@code REFUSED} for good, reported once as a
 * {@link ElectionEvent.Problem} and an error log line naming the reason. Every other failure leaves it
 * {@code VERIFYING} to be retried, even those that need a change outside this process (access denied, a missing
 * bucket or table): permissions propagate late and deployments create buckets and tables while applications start,
 * and retrying never lets the elector write before the store passed. Not thread-safe: used under the elector's lock.
 */
final class VerificationGate {

    private static final Logger log = LoggerFactory.getLogger(Elector.class);

    /** What the loop does after an answer. */
    enum Next {
        /** Verified: campaign now. */
        CAMPAIGN,
        /** The store could not be asked: verify again after a poll. */
        RETRY,
        /** Refused: make no further requests. */
        STOP
    }

    private final String key;
    private final boolean releaseByDelete;
    private final ProblemReporter problems;
    private StoreVerification state = StoreVerification.VERIFYING;
    private @Nullable StoreCapabilities capabilities;
    private @Nullable String reason;

    VerificationGate(String key, boolean releaseByDelete, ProblemReporter problems) {
        this.key = key;
        this.releaseByDelete = releaseByDelete;
        this.problems = problems;
    }

    /** Rule 0: true only once the store is verified for this elector. */
    boolean allowsCampaign() {
        return state == StoreVerification.VERIFIED;
    }

    /** True while a verification (or its retry) is due. */
    boolean verifying() {
        return state == StoreVerification.VERIFYING;
    }

    StoreVerification state() {
        return state;
    }

    /** The capabilities the store answered; empty before an answer, or when it could not be asked. */
    Optional<StoreCapabilities> capabilities() {
        return Optional.ofNullable(capabilities);
    }

    /** Why the store is refused, or the last failure while verifying; empty when verified. */
    Optional<String> reason() {
        return Optional.ofNullable(reason);
    }

    /**
     * Takes the answer of one verification: {@code answered} capabilities, or the {@code failure} (one of the two is
     * null).
     */
    Next onAnswer(@Nullable StoreCapabilities answered, @Nullable BackendException failure) {
        if (failure == null) {
            Objects.requireNonNull(answered, "the backend's verify() answered null, breaking its contract");
            capabilities = answered;
            try {
                answered.requireFor(releaseByDelete);
            } catch (StoreNotCapableException refused) {
                return refuse(refused);
            }
            state = StoreVerification.VERIFIED;
            reason = null;
            log.info("hoplock: the store of '{}' is verified: {}", key, answered.summary());
            return Next.CAMPAIGN;
        }
        if (failure.kind() != BackendException.Kind.CONDITIONAL_WRITES_NOT_SUPPORTED) {
            reason = failure.getMessage();
            return Next.RETRY;
        }
        if (failure instanceof StoreNotCapableException refused && refused.capabilities() != null) {
            capabilities = refused.capabilities();
        }
        return refuse(failure);
    }

    private Next refuse(BackendException failure) {
        state = StoreVerification.REFUSED;
        reason = failure.getMessage();
        problems.reportError(ElectionEvent.ProblemKind.CONDITIONAL_WRITES_NOT_SUPPORTED, "verify",
                ProblemMessages.storeRefused(key, reason), null);
        return Next.STOP;
    }
}
