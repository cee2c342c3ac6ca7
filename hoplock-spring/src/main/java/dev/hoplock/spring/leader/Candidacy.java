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
import java.util.EnumMap;
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
 * <p>Several causes can withdraw an application at once (its readiness, a stopped context, the application itself:
 * {@link Source}); each is entered again by its own cause only, and the application campaigns once none withholds it.
 * A context stopped while refusing traffic therefore stays withdrawn when it starts again until it accepts traffic,
 * and one that accepts traffic while stopped campaigns only once it starts.
 *
 * <p>Thread-safe: changes are serialised; {@link #isCandidate()} and {@link #withdrawnBecause()} read one volatile
 * field.
 */
public final class Candidacy {

    /** Who withdrew the application. Each cause is entered again only by itself. */
    public enum Source {
        /** The application itself ({@link HoplockElections#withdraw(String)}). */
        APPLICATION,
        /** The application's readiness state (not ready yet, or refusing traffic). */
        READINESS,
        /** The application context is stopped (not closed). */
        LIFECYCLE
    }

    private final EnumMap<Source, String> reasons = new EnumMap<>(Source.class);
    private volatile @Nullable String withdrawnBecause;

    private Candidacy() {
    }

    /** A candidacy that begins as a candidate (the behaviour without readiness: campaign once started). */
    public static Candidacy candidate() {
        return new Candidacy();
    }

    /** A candidacy that begins withdrawn by the application, for {@code reason} (shown by health and the endpoint). */
    public static Candidacy withdrawn(String reason) {
        return withdrawn(Source.APPLICATION, reason);
    }

    /** A candidacy that begins withdrawn by {@code source}, for {@code reason}. */
    public static Candidacy withdrawn(Source source, String reason) {
        Candidacy candidacy = new Candidacy();
        candidacy.withdraw(source, reason);
        return candidacy;
    }

    /** True while this application campaigns: no cause withholds it. */
    public boolean isCandidate() {
        return withdrawnBecause == null;
    }

    /** True while {@code source} withholds this application (other causes may too). */
    public synchronized boolean isWithdrawnBy(Source source) {
        return reasons.containsKey(Objects.requireNonNull(source, "source"));
    }

    /** True while a source other than {@code source} withholds this application. */
    public synchronized boolean isWithheldBesides(Source source) {
        Objects.requireNonNull(source, "source");
        return reasons.keySet().stream().anyMatch(other -> other != source);
    }

    /** Why this application does not campaign now (every cause, joined by "; "); empty while it is a candidate. */
    public Optional<String> withdrawnBecause() {
        return Optional.ofNullable(withdrawnBecause);
    }

    /**
     * From now on, claims are refused; {@code reason} says why (replacing an earlier reason of the same source). Does
     * not step down (see {@link HoplockElections}).
     */
    synchronized void withdraw(Source source, String reason) {
        reasons.put(Objects.requireNonNull(source, "source"), Objects.requireNonNull(reason, "reason"));
        withdrawnBecause = String.join("; ", reasons.values());
    }

    /** {@code source} no longer withholds; claims are written again once no cause does. True when a candidate now. */
    synchronized boolean enter(Source source) {
        reasons.remove(Objects.requireNonNull(source, "source"));
        withdrawnBecause = reasons.isEmpty() ? null : String.join("; ", reasons.values());
        return withdrawnBecause == null;
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
