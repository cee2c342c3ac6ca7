package dev.hoplock.spring.ownership;

import dev.hoplock.core.ownership.Member;
import dev.hoplock.core.ownership.MembershipUnavailableException;
import dev.hoplock.core.ownership.MembershipView;
import dev.hoplock.core.ownership.OwnershipClaim;
import dev.hoplock.core.ownership.OwnershipEvent;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.core.ownership.Rendezvous;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * This application's membership in one ownership group: the bean to inject to ask which instance owns a key.
 *
 * <pre>{@code
 * @Scheduled(fixedDelay = 60_000)
 * void sweep() {
 *     customers.allIds().stream().filter(ownership::isOwner).forEach(billing::bill);
 * }
 * }</pre>
 *
 * <p>Guarantees: every method reads local state only (no store request). {@link #isOwner} and {@link #token} answer
 * yes only while this instance <em>acts</em> as the key's owner under the safety rules of {@link OwnershipGroup} (at no
 * instant do two instances both answer yes for one key); {@link #owner} and {@link #replicas} are the rendezvous answer
 * over the current view, which a key's new owner may not act on yet. When the membership is not known (not joined
 * yet, the store unreachable past the TTL, closed) {@link #isOwner} is false and {@link #owner} empty: fail closed.
 * A yes from {@link #isOwner} is not a claim: work that may outlast the ownership should use {@link #claim} (or
 * {@code @LeaderOnly(key = ...)}), which is interrupted and invalidated when the key moves.
 *
 * <p>The bean remembers up to {@link KeysSeen#CAPACITY} keys it was asked about, so that each
 * {@link OwnershipChange} (delivered to {@link #addChangeListener listeners} on the group's event thread) names the
 * keys that moved, and the meters can show this instance's share of them. A change is also delivered at the instant
 * this instance stops acting without a new view (its view or liveness lease lapsed locally: the store did not answer
 * in time), with every key seen that it owned as lost ({@link OwnershipChange#stoppedActing()}); when the store
 * answers again, the next change is told only if something changed since (the members, or keys it owns again). A view
 * under which this instance does not act (the group's {@code MembershipChanged.acting()} false) gains no key
 * ({@link OwnershipChange#actsAfter()}); the keys are gained when the group tells it acts again.
 */
public final class HoplockOwnership implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HoplockOwnership.class);

    private final OwnershipGroup group;
    private final KeysSeen seen = new KeysSeen();
    private final List<Consumer<? super OwnershipChange>> listeners = new CopyOnWriteArrayList<>();
    private final AtomicLong changes = new AtomicLong();
    private final AtomicLong movedKeys = new AtomicLong();
    private volatile MembershipView lastView = MembershipView.empty(0);
    /**
     * The gate's answer as the group's events last told it: false after an {@link OwnershipEvent.ActingStopped}, and
     * after a {@link OwnershipEvent.MembershipChanged} its {@code acting} (only the event thread writes it).
     */
    private volatile boolean acting;
    private volatile boolean closed;

    public HoplockOwnership(OwnershipGroup group) {
        this.group = Objects.requireNonNull(group, "group");
        group.addListener(this::onEvent);
    }

    /** The group this bean is a member of. */
    public OwnershipGroup group() {
        return group;
    }

    /** The group's name. */
    public String name() {
        return group.group();
    }

    /** This instance as the group knows it. */
    public Member self() {
        return group.self();
    }

    /** The unique id of this process in the group ({@link OwnershipGroup#processOwner()}), the fence holder. */
    public String processOwner() {
        return group.processOwner();
    }

    /** True when this instance acts as the owner of {@code key} now. Local state only. */
    public boolean isOwner(String key) {
        seen.add(key);
        return group.isOwner(key);
    }

    /** The fencing token of {@code key} while this instance acts as its owner; empty otherwise. */
    public OptionalLong token(String key) {
        seen.add(key);
        return group.token(key);
    }

    /** The owner of {@code key} in the current view; empty when the members are not known. */
    public Optional<Member> owner(String key) {
        seen.add(key);
        return group.owner(key);
    }

    /** The owner and then its failover successors for {@code key}, at most {@code n}; empty when not known. */
    public List<Member> replicas(String key, int n) {
        return group.replicas(key, n);
    }

    /** The current members, sorted by id; empty when they are not known now (fail closed). */
    public List<Member> members() {
        try {
            return group.members().members();
        } catch (MembershipUnavailableException unknown) {
            return List.of();
        }
    }

    /** The current membership epoch; empty when the members are not known now. */
    public OptionalLong epoch() {
        return group.epoch();
    }

    /** True when this instance is registered under its current liveness term (it may own keys). */
    public boolean isMember() {
        return group.isMember();
    }

    /**
     * Opens a claim on {@code key} for work on the calling thread, if this instance acts as its owner now; see
     * {@link OwnershipClaim}. Close it in a {@code finally} block.
     */
    public Optional<OwnershipClaim> claim(String key, boolean interruptOnLoss) {
        seen.add(key);
        return group.claim(key, interruptOnLoss);
    }

    /**
     * Opens a claim on {@code key} for work not bound to a thread (a reactive subscription), if this instance acts as
     * its owner now; the end of the ownership runs {@code onLoss} instead of an interrupt (see
     * {@link dev.hoplock.core.ownership.OwnershipGroup#claim(String, Runnable)}: once at most, never after close, and
     * it must only hand the loss off). Close it when the work ends.
     */
    public Optional<OwnershipClaim> claim(String key, Runnable onLoss) {
        seen.add(key);
        return group.claim(key, onLoss);
    }

    /** How many distinct keys this bean was asked about (at most {@link KeysSeen#CAPACITY}). */
    public int keysSeen() {
        return seen.size();
    }

    /** Of the keys seen, the share whose owner in the current view is this instance (0 when none or not known). */
    public double shareOfKeysSeen() {
        List<String> keys = seen.snapshot();
        MembershipView view;
        try {
            view = group.members();
        } catch (MembershipUnavailableException unknown) {
            return 0;
        }
        if (keys.isEmpty()) {
            return 0;
        }
        String self = group.self().id();
        long owned = keys.stream().filter(key -> Rendezvous.isOwner(key, self, view)).count();
        return (double) owned / keys.size();
    }

    /** Membership changes this instance adopted since it started. */
    public long membershipChanges() {
        return changes.get();
    }

    /** Keys seen that changed owner, summed over the membership changes. */
    public long movedKeys() {
        return movedKeys.get();
    }

    /** Calls {@code listener} at every membership change, on the group's event thread. */
    public AutoCloseable addChangeListener(Consumer<? super OwnershipChange> listener) {
        Objects.requireNonNull(listener, "listener");
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    /** Joins the group (idempotent). */
    public void start() {
        group.start();
    }

    /** Leaves the group: stops acting on every key, waits for open claims, deregisters, releases (rule M7). */
    public CompletableFuture<Void> closeAsync() {
        closed = true;
        return group.closeAsync();
    }

    @Override
    public void close() {
        closed = true;
        group.close();
    }

    /** True once this instance started leaving the group. */
    public boolean isClosed() {
        return closed;
    }

    private void onEvent(OwnershipEvent event) {
        if (event instanceof OwnershipEvent.ActingStopped stopped) {
            // Told at the instant this instance stopped acting (its view or lease lapsed locally), not when the store
            // answers again: every key it owned is lost now; the next change compares with "owned nothing".
            acting = false;
            lastView = stopped.view();
            tell(OwnershipChange.stopped(stopped.group(), stopped.epoch(), group.self().id(), stopped.view(),
                    seen.snapshot()));
            return;
        }
        if (!(event instanceof OwnershipEvent.MembershipChanged changed)) {
            if (event instanceof OwnershipEvent.Problem problem) {
                log.debug("hoplock: ownership group '{}': {}", problem.group(), problem.message());
            }
            return;
        }
        MembershipView previous = changed.previous().isEmpty() && lastView.size() > 0 ? lastView : changed.previous();
        lastView = changed.current();
        boolean actedBefore = acting;
        // Review 1.2: acting follows the gate's answer the event carries, not "a view came": a view adopted while this
        // instance does not act under it (its term ended, the view already past its confirmation, another process's
        // registration) gains no key, as the gate runs none.
        boolean actsAfter = changed.acting();
        acting = actsAfter;
        if (actedBefore == actsAfter && previous.members().equals(changed.current().members())) {
            return; // the same member set seen again (a re-read of one epoch) and no change of acting: nothing moved
        }
        OwnershipChange change = OwnershipChange.of(changed.group(), changed.epoch(), group.self().id(), previous,
                changed.current(), seen.snapshot(), actedBefore, actsAfter);
        changes.incrementAndGet();
        movedKeys.addAndGet(change.movedKeys());
        tell(change);
    }

    private void tell(OwnershipChange change) {
        for (Consumer<? super OwnershipChange> listener : listeners) {
            try {
                listener.accept(change);
            } catch (RuntimeException e) {
                log.warn("hoplock: an ownership change listener failed on epoch {}", change.epoch(), e);
            }
        }
    }

    @Override
    public String toString() {
        return "HoplockOwnership[" + group.group() + ", " + group.self().id() + "]";
    }
}
