package dev.hoplock.core.ownership;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.ElectorSettings;
import dev.hoplock.core.internal.runtime.EngineRuntime;
import dev.hoplock.core.time.Scheduler;
import dev.hoplock.core.time.TimeSource;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Safe per-key ownership over a live membership kept in any {@link Backend}: every key has at most one acting owner at
 * any instant, chosen by rendezvous hashing ({@link Rendezvous}, the same answers as the Go package hanzoai/ha) over the
 * members, with a fencing token per key that rises at every change of owner.
 *
 * <h2>How it works</h2>
 * <ul>
 *   <li><b>Liveness lease.</b> Each member runs an {@link Elector} on its own key {@code <group>/members/<id>}: joining
 *       is acquiring it, staying is renewing it, leaving is releasing it, and a member that stops renewing loses it by
 *       the elector's rules (anchored validity, self-fencing on both clocks, takeover only after local observation).
 *       Two processes with one member id cannot both be members: only one holds the lease.</li>
 *   <li><b>Registry.</b> One record {@code <group>/registry}, changed only by compare-and-swap, lists the members with
 *       the membership <em>epoch</em>, which rises by one at every change of the member set, and its
 *       <em>incarnation</em>, a random id chosen when the record is created and carried by every later write (a
 *       deleted and re-created registry is another incarnation). Each entry names the process and the generation
 *       (term) of its liveness lease that registered it, and the highest epoch the member acknowledged. The store
 *       needs no list operation.</li>
 *   <li><b>Cost.</b> Discovery and failure detection cost members, not keys: 3 store requests per member per renew
 *       interval with nothing changing (the cost model is in the {@linkplain dev.hoplock.core.ownership package}
 *       documentation).</li>
 * </ul>
 *
 * <h2>Safety argument</h2>
 * Assumptions are the elector's: a linearisable store with conditional writes, monotonic clocks whose rates differ by
 * less than the safety margin absorbs, and the registry changed only by hoplock members. A store whose verification
 * reports reads that may lag ({@link dev.hoplock.core.backend.StoreCapabilities.Reads#MAY_LAG}: a replicated NATS
 * bucket) is refused by the liveness elector's E0 gate before any registry request ({@code CurrentReadsRequired}).
 * An instance <em>acts</em> as the owner of key {@code k} when {@link #isOwner}/{@link #token} answer yes or a
 * {@link OwnershipClaim} on {@code k} is valid. The rules:
 * <ol>
 *   <li><b>M1, acting needs the registered term.</b> An instance acts only while its liveness elector leads, and only
 *       under a registry entry that carries this process (its owner id) and the generation of the term it leads in now
 *       (checked in {@code ActingGate.tokenIfActing}; the entry is written by {@code SelfRegistration}; the chains of
 *       M4 and M8 need the same). An entry of another process at the same generation (a second process with this
 *       member id that re-created a deleted member lease) is not this one's. A process whose term ended (self-fenced
 *       at the elector's deadline, whether or not it can reach the store) owns nothing, and a later term of it owns
 *       nothing until it registered again. A registration that replaced another process's entry of its member id at
 *       a generation not below its own trusts no acknowledgement for a whole {@code ttl} ({@code ViewAdoption}): no
 *       lease rule proves that the replaced process stopped, only the lapse of its view (M2).</li>
 *   <li><b>M2, a view is acted under only while confirmed.</b> An epoch's view is used until {@code t0 + ttl - margin}
 *       on both the monotonic and the wall clock, where {@code t0} is taken before the last request whose answer showed
 *       that epoch (set in {@code ViewAdoption.adopt}, checked by {@code EpochView.fresh}). Any newer epoch was written
 *       after that request took effect. Only a version that is provably the same view re-confirms it: the same
 *       incarnation, epoch and registrations (member ids, processes, generations; {@code Registry.sameViewAs}). Any
 *       other version, even at the same epoch number, is a new view (M9). A view is always a whole registry version the store held: a read
 *       answered torn (S3Mock streams a newer body under an older length) fails the version's end line
 *       ({@code RegistrySeal}) and is neither adopted nor re-confirms a view.</li>
 *   <li><b>M3, a gained key waits for the hand-over.</b> A key this instance owns at epoch {@code E} but did not own at
 *       {@code E - 1} is acted on only once {@code E} is settled: every other member of {@code E} acknowledged
 *       {@code E} (read in the registry) and the incarnation is not <em>young</em>, or a whole {@code ttl} has passed on
 *       this machine's monotonic clock since the answer that first showed it {@code E} ({@code ViewAdoption.adopt},
 *       {@code EpochView.settled}). By then every view older than {@code E} confirmed elsewhere has lapsed (M2),
 *       because it was confirmed before {@code E} was written. A member that is in an older epoch but not in
 *       {@code E} was removed only once stopped (M6, M7). A created registry is young: the members of a deleted one
 *       are in no entry and acknowledge nothing, so a member alone in the registry it created is not "acknowledged by
 *       everyone", and no epoch of a young incarnation is settled by acknowledgements, at any read. It stops being
 *       young when a member whose own grace has passed at one of its epochs records so ({@code Registry.grownUp},
 *       written by {@code MembershipLoop}): that answer came after the creation, so every view confirmed before the
 *       deletion has lapsed.</li>
 *   <li><b>M4, a kept key is not interrupted.</b> A key owned by this instance under the same registration at
 *       {@code E - 1} and {@code E} stays actionable across the change if it was actionable at {@code E - 1}
 *       ({@code EpochView.actionable}): no epoch in between gave it to anyone else. Epochs skipped, another
 *       incarnation, another view at the same epoch number and another registration break the chain.</li>
 *   <li><b>M5, acknowledge only after stopping.</b> An instance writes its acknowledgement of {@code E} only after it
 *       adopted {@code E} (it acts under no older epoch from then on), and only while every open claim is on a key it
 *       owns at {@code E} with the same token ({@code SelfRegistration.next}, {@code ClaimBook.mayAcknowledge}).</li>
 *   <li><b>M6, remove only the provably stopped.</b> Another member's entry is removed only when a read of its liveness
 *       lease shows it released or held by another process, or unchanged in a read sent a whole {@code ttl} (on this
 *       machine's monotonic clock) after the answer of the first read that saw it, and expired by this machine's wall
 *       clock (the elector's rule 4, measured to the later read's sending because the removal is no compare-and-swap on
 *       the lease itself), or absent likewise ({@code LeaseWatch}, which judges by the elector's own observation and
 *       decision through {@link dev.hoplock.core.internal.lease.ExpiryWitness}). Its term has then ended, and by M1 no
 *       later term of it acts under the old entry.</li>
 *   <li><b>M7, leave only after stopping.</b> {@link #close()} stops every check at once, tells open claims, waits up
 *       to the release timeout for them to close, and only then deregisters and releases the liveness lease; with a
 *       claim still open it does neither and lets the lease expire ({@link #closeAsync()}, {@code Departure}).</li>
 *   <li><b>M8, fencing tokens.</b> The token of {@code k} is the epoch at which this instance's continuous ownership of
 *       {@code k} began (the chain of M4; {@code EpochView.acquiredAt}), computed from the chain's membership history
 *       alone (its first epoch, and the last epoch each departed member id was present), so a key that did not move
 *       keeps its token whichever keys were asked about and however many changes ago its ownership began (exactly for
 *       up to 1,024 member ids departed within one chain; beyond, the oldest departures raise the chain's start:
 *       {@code EpochView}'s memory limit). Proof that it rises at every change of owner:
 *       let A act on {@code k} with token {@code a} under epochs {@code a..G}, and B act on it after A with token
 *       {@code b} under epoch {@code F}. B's chain {@code b..F} holds only epochs where B owns {@code k}, so it
 *       excludes {@code a..G}. {@code F < a} is impossible: A's gate at {@code a} (M3) required B to have acknowledged
 *       {@code a} or its view older than {@code a} to have lapsed, after which B never acts under an epoch below
 *       {@code a} (M2, M5, epochs only rise). So {@code F > G}, and as the chain is contiguous,
 *       {@code b > G >= a}.</li>
 *   <li><b>M9, epochs only rise.</b> Every write is a compare-and-swap on the version read, and each change of the
 *       member set writes {@code epoch + 1}. A registry that disappears is re-created by a member that saw it only
 *       after a whole {@code ttl} of observed absence, as a new, young incarnation (M3). An epoch lower than one seen,
 *       another registry at the adopted epoch number, or another incarnation is reported (a re-created registry:
 *       tokens may repeat across such a reset), and is a new view that starts a new chain, its gained keys waiting for
 *       M3 ({@code RegistryAbsence} for the re-creation, {@code ViewAdoption} for the recognition and the report,
 *       the compare-and-swap in {@code MembershipLoop.write}).</li>
 * </ol>
 * Together: two instances acting on one key at one instant would have to act under epochs where each owns it; by M2
 * to M5 the later one's gate opened only after the earlier one stopped acting under its epoch, and by M1, M6 and M7
 * a member that left the registry stopped first.
 *
 * <h2>Where the code is</h2>
 * This class is a facade. Package-private types do one job each: {@code ActingGate} (the hot path: M1, and M2 to M4
 * and M8 through {@code EpochView}), {@code MembershipLoop} (the registry protocol, one request at a time),
 * {@code ViewAdoption} (M2, M3), {@code SelfRegistration} (the entry M1 needs, M5, the store part of M7),
 * {@code LeaseWatch} (M6, over the elector's rule 4 in {@code ExpiryWitness}), {@code RegistryAbsence} (M9), {@code Departure} (M7), {@code ClaimBook} (claims, M5),
 * {@code GroupConfig} (validated settings), {@code LivenessElector} (the lease of M1), {@code EngineRuntime} (its threads, shared with the elector and named locks),
 * {@code GroupEngine} (the parts wired together, their start and leave),
 * {@code GroupEvents}, {@code MemberKeys} and {@code OwnershipProblems} (every message text).
 *
 * <h2>Limits</h2>
 * Owner work that ignores {@link OwnershipClaim#isValid()} and interruption cannot be stopped; a claim then only delays
 * the hand-over until the validity has passed. A key moves only after the old owner acknowledged (about one poll) or
 * after one TTL; a crashed member's keys move after its lease is judged ended (about one to two TTLs). A new group
 * (or a re-created registry) owns nothing for one TTL after its registry is created. A deleted registry stops every
 * member that saw it for one TTL, and tokens may repeat across that reset. A registry record with an incarnation line
 * cannot be read by versions older than it (they own nothing until upgraded).
 *
 * <h2>Threads</h2>
 * {@link #isOwner}, {@link #token}, {@link #owner}, {@link #replicas} and {@link #members} read local state only: no
 * store request, no lock. Events are delivered on the event executor.
 */
public final class OwnershipGroup implements Membership, AutoCloseable {

    private final GroupConfig config;
    private final Member self;
    private final GroupEngine engine;

    private OwnershipGroup(Builder b, GroupConfig config) {
        this.config = config;
        this.self = new Member(config.memberId(), config.address());
        this.engine = new GroupEngine(b, config);
    }

    /** A builder for a group over a blocking backend. */
    public static Builder builder(Backend backend, String group) {
        return new Builder(EngineRuntime.over(CurrentReadsRequired.of(backend)), group);
    }

    /** A builder for a group over a non-blocking backend (simulations). */
    public static Builder builder(AsyncBackend backend, String group) {
        return new Builder(EngineRuntime.over(CurrentReadsRequired.of(backend)), group);
    }

    // ------------------------------------------------------------------ lifecycle

    /** Starts the liveness lease and the membership loop. Idempotent. */
    public void start() {
        engine.start();
    }

    /**
     * Rule M7 ({@link Departure}): stops acting on every key at once, tells open claims, waits up to the release
     * timeout for them to close, then deregisters and releases the liveness lease; if a claim is still open, does
     * neither (the lease expires). Completes when done; never fails.
     */
    public CompletableFuture<Void> closeAsync() {
        return engine.closeAsync();
    }

    /** {@link #closeAsync()} and waits for it, bounded. */
    @Override
    public void close() {
        engine.close();
    }

    // ------------------------------------------------------------------ the hot path

    /**
     * True when this instance acts as the owner of {@code key} now: the key's owner in the current view and every
     * rule of the safety argument holds. Local state only, no store request.
     */
    public boolean isOwner(String key) {
        return engine.gate.tokenIfActing(key) >= 0;
    }

    /** The fencing token of {@code key} while this instance acts as its owner; empty otherwise. Local state only. */
    public OptionalLong token(String key) {
        long token = engine.gate.tokenIfActing(key);
        return token >= 0 ? OptionalLong.of(token) : OptionalLong.empty();
    }

    /**
     * Opens a claim for work on {@code key} on the calling thread if this instance acts as its owner now; empty
     * otherwise. See {@link OwnershipClaim}. Local state only.
     *
     * @param interruptOnLoss interrupt the calling thread when the ownership ends while the claim is open
     */
    public Optional<OwnershipClaim> claim(String key, boolean interruptOnLoss) {
        return engine.gate.claim(this, engine.claims, key, interruptOnLoss);
    }

    /**
     * Opens a claim for work on {@code key} that is not bound to a thread (a reactive subscription, a coroutine) if
     * this instance acts as its owner now; empty otherwise. Local state only. Instead of interrupting a thread, the end
     * of this ownership while the claim is open (the key moved, the member lease ended, the group is leaving or
     * closed) runs {@code onLoss}: at most once, never once {@link OwnershipClaim#close()} has returned, after
     * {@link OwnershipClaim#isValid()} turned false. It runs on the thread that noticed the loss, possibly under the
     * group's or its elector's lock: it must return promptly and only hand the loss off (for example schedule the
     * cancellation of a subscription on another executor); it must not block, nor call this group, nor close the claim
     * on the thread that runs it (the claim's and its scope's monitors may be held there in either order; close it
     * from the thread the loss was handed to). What it throws is logged. A claim is told when the member stops acting
     * too (the view's confirmation lapsed, rule M2), at the check planned for that instant; work that must not act
     * after the loss checks {@code isValid()} before each step as well.
     *
     * @param onLoss what the end of the ownership does to the work, instead of an interrupt
     */
    public Optional<OwnershipClaim> claim(String key, Runnable onLoss) {
        java.util.Objects.requireNonNull(onLoss, "onLoss");
        return engine.gate.claim(this, engine.claims, key, onLoss);
    }

    /** The hot path's gate (rules M1 to M4 and M8), for the tests' seams. */
    ActingGate gate() {
        return engine.gate;
    }

    /** The view the hot path answers under (or null), for the tests' seams. */
    @Nullable EpochView currentView() {
        return engine.loop.current();
    }

    /** The owner of {@code key} in the current view (not necessarily acting yet); empty when no view is usable. */
    public Optional<Member> owner(String key) {
        Objects.requireNonNull(key, "key is null");
        MembershipView view = engine.gate.usableView();
        return view == null ? Optional.empty() : Rendezvous.owner(key, view);
    }

    /** {@link Rendezvous#replicas} over the current view; empty when no view is usable. */
    public List<Member> replicas(String key, int n) {
        MembershipView view = engine.gate.usableView();
        return view == null ? List.of() : Rendezvous.replicas(key, view, n);
    }

    @Override
    public Member self() {
        return self;
    }

    /**
     * The unique id of this process as written into its liveness lease ({@link Builder#owner}; default
     * host:pid:random). Unlike the member id, a new process does not reuse it: pass it as the holder of a fence
     * check with a key's token ({@link dev.hoplock.core.fencing.Fence#check(String, long, String)}), so that a stale
     * process's equal token is refused.
     */
    public String processOwner() {
        return config.owner();
    }

    /**
     * The members of the current epoch (version = epoch).
     *
     * @throws MembershipUnavailableException before the first registry read, and once the view is older than its
     *                                        validity (the store was unreachable), or after close
     */
    @Override
    public MembershipView members() {
        MembershipView view = engine.gate.usableView();
        if (view == null) {
            throw new MembershipUnavailableException(OwnershipProblems.membersUnknown(config.group(),
                    engine.loop.lastProblem()));
        }
        return view;
    }

    /** The current membership epoch, or empty when no view is usable. */
    public OptionalLong epoch() {
        return engine.gate.epoch();
    }

    /** True when this instance is registered under its current liveness term (it may own keys). */
    public boolean isMember() {
        return engine.gate.isMember();
    }

    /** The group's name. */
    public String group() {
        return config.group();
    }

    /**
     * The key of the group's registry record ({@code <group>/registry}). Its format is the registry's own, not a lease
     * record's: operators read it, never release it.
     */
    public String registryKey() {
        return MemberKeys.registryKey(config.group());
    }

    /** The liveness elector's settings (key {@code <group>/members/<id>}, TTL, intervals). */
    public ElectorSettings settings() {
        return engine.elector.settings();
    }

    /**
     * Calls {@code listener} for every event, on the event executor. The returned handle stops the calls.
     *
     * <p>Some events are published while the group holds its internal lock. With a direct event executor (such as
     * {@code Runnable::run}, used in tests) the listener then runs on that thread under that lock: it must not block,
     * and must not call back into this group (or an elector or lock sharing its threads) synchronously, or it delays or
     * deadlocks the group's timing. Use an asynchronous event executor, or hand the work off, for anything slower.
     */
    public AutoCloseable addListener(Consumer<? super OwnershipEvent> listener) {
        return engine.events.add(listener);
    }

    /**
     * Calls {@code listener} for every event of this member's liveness lease (the elector on
     * {@code <group>/members/<id>}, owner {@link #processOwner()}: acquired, renewed, lost, holder observed), on the
     * group's event executor, with the delivery guarantees of {@link dev.hoplock.core.election.ElectionEvent}. For
     * observing the lease (traces, logs); the group's own rules read the elector, not these events. The returned
     * handle stops the calls.
     */
    public AutoCloseable addLivenessListener(Consumer<? super dev.hoplock.core.election.ElectionEvent> listener) {
        return engine.elector.addListener(listener);
    }

    @Override
    public String toString() {
        return "OwnershipGroup[" + config.group() + ", " + config.memberId() + "]";
    }

    /** Builds an {@link OwnershipGroup}; defaults are the elector's (TTL 30 s, renew TTL/3, poll TTL/15). */
    public static final class Builder {
        // package-private: read by GroupConfig and LivenessElector
        final EngineRuntime.Builder runtime;
        final String group;
        @Nullable String memberId;
        String address = "";
        @Nullable String owner;
        Duration ttl = ElectorSettings.DEFAULT_TTL;
        @Nullable Duration renewInterval;
        @Nullable Duration pollInterval;
        @Nullable Duration requestTimeout;
        @Nullable Duration safetyMargin;
        Duration releaseTimeout = ElectorSettings.DEFAULT_RELEASE_TIMEOUT;
        /** Test seam (set by OwnershipSeams): further settings of the liveness elector. */
        @Nullable Consumer<Elector.Builder> electorCustomizer;
        /** Test seam (set by OwnershipSeams): rule-breaking defects the simulation plants. */
        final Set<GroupConfig.Defect> defects = EnumSet.noneOf(GroupConfig.Defect.class);

        private Builder(EngineRuntime.Builder runtime, String group) {
            this.runtime = runtime;
            this.group = group;
        }

        /** This member's stable id (hashed): a pod name, a node id. Default: a generated host:pid:random id. */
        public Builder memberId(String memberId) {
            this.memberId = memberId;
            return this;
        }

        /** Where other members reach this one (not hashed); default empty. */
        public Builder address(String address) {
            this.address = address;
            return this;
        }

        /** The process id written into the liveness lease; default host:pid:random. */
        public Builder owner(String owner) {
            this.owner = owner;
            return this;
        }

        public Builder ttl(Duration ttl) {
            this.ttl = ttl;
            return this;
        }

        public Builder renewInterval(Duration renewInterval) {
            this.renewInterval = renewInterval;
            return this;
        }

        public Builder pollInterval(Duration pollInterval) {
            this.pollInterval = pollInterval;
            return this;
        }

        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
            return this;
        }

        public Builder safetyMargin(Duration safetyMargin) {
            this.safetyMargin = safetyMargin;
            return this;
        }

        public Builder releaseTimeout(Duration releaseTimeout) {
            this.releaseTimeout = releaseTimeout;
            return this;
        }

        public Builder timeSource(TimeSource time) {
            runtime.time(time);
            return this;
        }

        public Builder scheduler(Scheduler scheduler) {
            runtime.scheduler(scheduler);
            return this;
        }

        public Builder ioExecutor(Executor ioExecutor) {
            runtime.ioExecutor(ioExecutor);
            return this;
        }

        /**
         * The executor that delivers events to listeners. A direct executor runs listeners inline, possibly under the
         * group's lock: see {@link OwnershipGroup#addListener} for what such listeners must not do.
         */
        public Builder eventExecutor(Executor eventExecutor) {
            runtime.eventExecutor(eventExecutor);
            return this;
        }

        /**
         * Builds the group (not started).
         *
         * @throws InvalidSettingException naming the setting, the value and the fix
         */
        public OwnershipGroup build() {
            return new OwnershipGroup(this, GroupConfig.from(this));
        }
    }
}
