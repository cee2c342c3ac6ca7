package dev.hoplock.core.internal.lease;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoreNotCapableException;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.StoreVerification;
import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.Optional;

/**
 * Implements E0, <em>campaign only on a verified store</em> (the rule's text is in {@link Elector}'s Javadoc): the one
 * gate of every lease user in this library. The {@link Elector}'s {@code LeaseLoop} feeds it the answers of its bounded
 * verification requests; named locks feed it through {@code LockStoreGate}, which only asks the store on demand; an
 * ownership group's members are electors, so they pass it too. The state machine is
 * {@link StoreVerification#VERIFYING} → {@link StoreVerification#VERIFIED} or {@link StoreVerification#REFUSED}, fed
 * with the answers of {@link dev.hoplock.core.backend.AsyncBackend#verify()}.
 *
 * <p>Guarantees: {@link #allowsCampaign()} is true only after a verification answered capabilities that pass
 * {@link StoreCapabilities#requireFor(boolean)} for this user's release mode (named locks release by an expired record,
 * never by a delete). Only the store's verdict is final: a missing capability (in the answer, or thrown as
 * {@link BackendException.Kind#CONDITIONAL_WRITES_NOT_SUPPORTED}, such as a 501 to a conditional request) makes it
 * {@code REFUSED} for good, reported once to its {@link Verdicts} (the elector: an
 * {@link dev.hoplock.core.election.ElectionEvent.Problem} and an error log line naming the reason; named locks: an
 * error log line). A store whose verification says it does not honour conditional writes (in its answer or by that
 * exception) is never written to, and asking it again could only ever turn that "no" into a write on a store that does
 * not keep the condition. The gate judges verification answers only: a 501 to a later write is that write's failure
 * (an unknown outcome, E5), not a verdict. Every other failure leaves it {@code VERIFYING} to be asked again,
 * even those that need a change outside this process (access denied, a missing bucket or table): permissions propagate
 * late and deployments create buckets and tables while applications start, and asking again never lets anything write
 * before the store passed. (Until issue 20 named locks had their own gate, which asked again after a thrown
 * {@code CONDITIONAL_WRITES_NOT_SUPPORTED}; they now refuse for good, as the elector always did.) Not thread-safe: used
 * under its user's lock.
 */
public final class VerificationGate {

    /** Where the gate's final verdicts go: each is told at most once. */
    public interface Verdicts {
        /** The store passed; the user may campaign. */
        void verified(StoreCapabilities capabilities);

        /** The store is refused for good, for {@code reason}. */
        void refused(String reason);
    }

    /** What the loop does after an answer. */
    public enum Next {
        /** Verified: campaign now. */
        CAMPAIGN,
        /** The store could not be asked: verify again after a poll. */
        RETRY,
        /** Refused: make no further requests. */
        STOP
    }

    private final boolean releaseByDelete;
    private final Verdicts verdicts;
    /** Written under the user's lock, read by {@link #state()} without it (so volatile). */
    private volatile StoreVerification state = StoreVerification.VERIFYING;
    private @Nullable StoreCapabilities capabilities;
    private @Nullable String reason;
    private @Nullable BackendException refusal;

    public VerificationGate(boolean releaseByDelete, Verdicts verdicts) {
        this.releaseByDelete = releaseByDelete;
        this.verdicts = verdicts;
    }

    /** E0: true only once the store is verified for this user. */
    public boolean allowsCampaign() {
        return state == StoreVerification.VERIFIED;
    }

    /** True while a verification (or its retry) is due. */
    public boolean verifying() {
        return state == StoreVerification.VERIFYING;
    }

    /** Where the verification stands; the one method that may be called without the user's lock. */
    public StoreVerification state() {
        return state;
    }

    /** The capabilities the store answered; empty before an answer, or when it could not be asked. */
    public Optional<StoreCapabilities> capabilities() {
        return Optional.ofNullable(capabilities);
    }

    /** Why the store is refused, or the last failure while verifying; empty when verified. */
    public Optional<String> reason() {
        return Optional.ofNullable(reason);
    }

    /** The failure that refused the store for good; empty unless {@link StoreVerification#REFUSED}. */
    public Optional<BackendException> refusal() {
        return Optional.ofNullable(refusal);
    }

    /**
     * Takes the answer of one verification: {@code answered} capabilities, or the {@code failure} (one of the two is
     * null).
     */
    public Next onAnswer(@Nullable StoreCapabilities answered, @Nullable BackendException failure) {
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
            verdicts.verified(answered);
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
        refusal = failure;
        reason = failure.getMessage();
        verdicts.refused(String.valueOf(reason));
        return Next.STOP;
    }
}
