package dev.hoplock.spring.observation;

import dev.hoplock.core.Holder;
import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.LossCause;
import dev.hoplock.core.lock.LockEvent;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.ownership.HoplockOwnership;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;


/**
 * One {@link HoplockObservations#LEASE} observation per term of a lease this instance holds, made from the engines'
 * own events (no store request, no lock of the engine): started at the acquisition, a
 * {@link HoplockObservations#RENEWED} event at each renewal, stopped at the release or the loss. Elections: the
 * observation's {@code acquisition} is {@code takeover} when the last holder this instance saw before was another
 * owner (whose lease it took over once expired), else {@code free}; at the end {@code outcome} is {@code released}
 * (stepped down, or stopped at shutdown) or {@code lost}, and {@code cause} the elector's loss cause
 * ({@code stepped_down}, {@code stopped}, {@code taken_over}, {@code deadline_passed}, {@code deleted}). Named locks:
 * one per acquisition, the name {@code locks} (never the lock's name), {@code acquisition=unknown} (a lock's event
 * does not tell), {@code outcome} {@code released} (cause {@code released}) or {@code lost} (the lock's loss cause).
 * The ownership group member's liveness lease (when an ownership group is given): as an election's, with
 * {@code primitive=ownership} and the group's name; its loss is the member's, which then owns no key. Every
 * observation of this name has the same low-cardinality keys; {@link DefaultLeaseObservationConvention} names them,
 * an application's {@link LeaseObservationConvention} renames them or adds key values.
 *
 * <p>A term can last as long as the process: the span is exported when the term ends; a killed process exports
 * none. Store requests are observed on their own ({@link ObservedBackend}); they are not children of the term
 * (they run on the engines' threads before the event that reports them).
 *
 * <p>Guarantees: subscribes when constructed, before the engines start, so no term is missed; acquisitions and
 * losses are never dropped by the core. Terms still open when the bean is destroyed are stopped with
 * {@code outcome=closed}.
 */
public final class LeaseObservations implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(LeaseObservations.class);

    private final ObservationRegistry registry;
    private final @Nullable LeaseObservationConvention convention;
    private final List<AutoCloseable> subscriptions = new ArrayList<>();
    private final List<Terms> terms = new ArrayList<>();

    /** Observes the terms of every election of {@code elections} and, when given, of the named locks. */
    public LeaseObservations(ObservationRegistry registry, HoplockElections elections, @Nullable Locks locks) {
        this(registry, elections, locks, null, null);
    }

    /**
     * Observes the terms of every election of {@code elections}, when given of the named locks, and when given of the
     * liveness lease of this instance's member of the ownership group ({@code primitive=ownership}, the group's name;
     * its lease is renewed as an election's, by the group's own elector), with the application's {@code convention}
     * (null: the registry's global one for these contexts, if any, else {@link DefaultLeaseObservationConvention}).
     */
    public LeaseObservations(ObservationRegistry registry, HoplockElections elections, @Nullable Locks locks,
            @Nullable HoplockOwnership ownership, @Nullable LeaseObservationConvention convention) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.convention = convention;
        elections.asMap().forEach((name, elector) -> {
            ElectionTerms electionTerms = new ElectionTerms("election", name, elector.owner());
            terms.add(electionTerms);
            subscriptions.add(elector.addListener(electionTerms::on));
        });
        if (ownership != null) {
            OwnershipGroup group = ownership.group();
            ElectionTerms liveness = new ElectionTerms("ownership", group.group(), group.processOwner());
            terms.add(liveness);
            subscriptions.add(group.addLivenessListener(liveness::on));
        }
        if (locks != null) {
            LockTerms lockTerms = new LockTerms();
            terms.add(lockTerms);
            subscriptions.add(locks.addListener(lockTerms::on));
        }
    }

    /** Every observation of one name has the same low-cardinality keys (meter registries such as Prometheus need it). */
    private Observation start(String primitive, String name, long generation, String acquisition) {
        return Observation.createNotStarted(convention, DefaultLeaseObservationConvention.INSTANCE,
                        () -> new LeaseObservationContext(primitive, name, acquisition, generation), registry)
                .parentObservation(null)
                .start();
    }

    private static void end(Observation observation, String outcome, String cause) {
        if (observation.getContext() instanceof LeaseObservationContext context) {
            context.setEnd(outcome, cause);
        }
        observation.stop();
    }

    @Override
    public void destroy() {
        for (AutoCloseable subscription : subscriptions) {
            try {
                subscription.close();
            } catch (Exception e) {
                log.debug("hoplock: closing a lease observation subscription failed", e);
            }
        }
        terms.forEach(Terms::closeAll);
    }

    /** The open terms of one engine. */
    private interface Terms {
        void closeAll();
    }

    /** The terms of one election; its events arrive one at a time on the elector's event thread. */
    private final class ElectionTerms implements Terms {

        private final String primitive;
        private final String name;
        private final String self;
        private @Nullable Observation term;
        /** The last holder seen that was another owner, until the lease was seen free or taken here. */
        private @Nullable Holder other;

        ElectionTerms(String primitive, String name, String self) {
            this.primitive = primitive;
            this.name = name;
            this.self = self;
        }

        synchronized void on(ElectionEvent event) {
            if (event instanceof ElectionEvent.LeaderObserved observed) {
                Holder holder = observed.holder().orElse(null);
                if (holder == null) {
                    other = null;
                } else if (!holder.owner().equals(self)) {
                    other = holder;
                }
            } else if (event instanceof ElectionEvent.Acquired acquired) {
                if (term != null) {
                    end(term, "lost", "unreported");
                }
                term = start(primitive, name, acquired.lease().generation(), other != null ? "takeover" : "free");
                other = null;
            } else if (event instanceof ElectionEvent.Renewed) {
                if (term != null) {
                    term.event(HoplockObservations.RENEWED);
                }
            } else if (event instanceof ElectionEvent.Lost lost) {
                if (term != null) {
                    boolean released = lost.cause() == LossCause.STEPPED_DOWN || lost.cause() == LossCause.STOPPED;
                    end(term, released ? "released" : "lost", lost.cause().name().toLowerCase(Locale.ROOT));
                    term = null;
                }
            }
        }

        @Override
        public synchronized void closeAll() {
            if (term != null) {
                end(term, "closed", "closed");
                term = null;
            }
        }
    }

    /** The acquisitions of the named locks, by name and token (the name is only this map's key). */
    private final class LockTerms implements Terms {

        private final Map<Acquisition, Observation> open = new HashMap<>();

        synchronized void on(LockEvent event) {
            if (event instanceof LockEvent.Acquired acquired) {
                Observation previous = open.put(new Acquisition(acquired.name(), acquired.token()),
                        start("lock", "locks", acquired.token(), "unknown"));
                if (previous != null) {
                    end(previous, "lost", "unreported");
                }
            } else if (event instanceof LockEvent.Extended extended) {
                Observation term = open.get(new Acquisition(extended.name(), extended.token()));
                if (term != null) {
                    term.event(HoplockObservations.RENEWED);
                }
            } else if (event instanceof LockEvent.Released released) {
                Observation term = open.remove(new Acquisition(released.name(), released.token()));
                if (term != null) {
                    end(term, "released", "released");
                }
            } else if (event instanceof LockEvent.Lost lost) {
                Observation term = open.remove(new Acquisition(lost.name(), lost.token()));
                if (term != null) {
                    end(term, "lost", lost.cause().name().toLowerCase(Locale.ROOT));
                }
            }
        }

        @Override
        public synchronized void closeAll() {
            open.values().forEach(term -> end(term, "closed", "closed"));
            open.clear();
        }
    }

    private record Acquisition(String name, long token) {
    }
}
