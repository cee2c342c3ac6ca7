package dev.hoplock.spring.leader;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether this application stands in its elections now: a candidate campaigns as usual; a withdrawn one (for example
 * while its readiness state is {@code REFUSING_TRAFFIC}) never begins a term, and keeps following the election.
 *
 * <h2>Rule: a withdrawn application writes no claim</h2>
 * Every election's store is reached through {@link #guard(Backend)}. While withdrawn, the guard refuses every write
 * that would make or keep this process the holder (a claim: any lease record that is not a release), without sending
 * it, and answers it as a refused condition. Reads, releases, deletes and the store's verification pass. The
 * elector treats a refusal as a write that may or may not have happened and adopts it only if a later read finds its
 * exact owner, generation and nonce (rule 5 of its safety argument); a claim that was never sent can never be found,
 * so the elector stays a follower. This rule only ever removes writes, so it cannot weaken the elector's safety: at
 * most one leader holds as before, and this process is simply never among the candidates.
 *
 * <p>Withdrawing a leader ({@link HoplockElections#withdraw(String)}) steps it down first: leader work is told to
 * stop and the lease is released through the elector's own release gate, so another instance takes over at its next
 * poll. A claim already sent when the withdrawal begins may still land; the term it begins is stepped down as soon as
 * its {@code Acquired} event is delivered ({@link HoplockElections}).
 *
 * <p>Thread-safe: the state is one volatile field.
 */
public final class Candidacy {

    private volatile @Nullable String withdrawnBecause;

    private Candidacy(@Nullable String withdrawnBecause) {
        this.withdrawnBecause = withdrawnBecause;
    }

    /** A candidacy that begins as a candidate (the behaviour without readiness: campaign once started). */
    public static Candidacy candidate() {
        return new Candidacy(null);
    }

    /** A candidacy that begins withdrawn, for {@code reason} (shown by health and the endpoint). */
    public static Candidacy withdrawn(String reason) {
        return new Candidacy(Objects.requireNonNull(reason, "reason"));
    }

    /** True while this application campaigns. */
    public boolean isCandidate() {
        return withdrawnBecause == null;
    }

    /** Why this application does not campaign now; empty while it is a candidate. */
    public Optional<String> withdrawnBecause() {
        return Optional.ofNullable(withdrawnBecause);
    }

    /** From now on, claims are refused; {@code reason} says why. Does not step down (see {@link HoplockElections}). */
    void withdraw(String reason) {
        withdrawnBecause = Objects.requireNonNull(reason, "reason");
    }

    /** From now on, claims are written again. */
    void enter() {
        withdrawnBecause = null;
    }

    /** The store of one election, as this candidacy lets the elector use it. */
    public Backend guard(Backend store) {
        return new Guarded(Objects.requireNonNull(store, "store"));
    }

    @Override
    public String toString() {
        String because = withdrawnBecause;
        return because == null ? "Candidacy[candidate]" : "Candidacy[withdrawn: " + because + "]";
    }

    /** Refuses claims while withdrawn; forwards everything else. */
    private final class Guarded extends DelegatingBackend {

        Guarded(Backend store) {
            super(store);
        }

        @Override
        public WriteResult write(String key, Handle expected, byte[] content, Duration timeout)
                throws BackendException {
            if (!isCandidate() && isClaim(content)) {
                return WriteResult.preconditionFailed();
            }
            return delegate.write(key, expected, content, timeout);
        }

        /** Any record that is not a release: a create, a takeover or a renewal. */
        private boolean isClaim(byte[] content) {
            try {
                LeaseRecord record = LeaseRecordCodec.decode(content);
                return !record.isReleased();
            } catch (MalformedLeaseRecordException e) {
                return true;
            }
        }

        @Override
        public String toString() {
            return delegate.toString();
        }
    }
}
