package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.ElectorSettings;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.spring.leader.Candidacy;
import dev.hoplock.spring.leader.HoplockElections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Starts the electors with the application context and stops them first on shutdown.
 *
 * <h2>Start</h2>
 * The electors start at once (with {@code hoplock.campaign-when=ready}, the default, once the application is ready:
 * {@link ReadinessCandidacy}) and never hold up the context: each verifies the store on its own IO thread before it
 * campaigns (rule 0 of the elector's safety argument; for S3 with {@code hoplock.probe=true} the conditional-write
 * probe), asks again every poll while the store cannot be asked, and never campaigns on a store that lacks what it
 * needs; the health contributor and the endpoint show where that stands ({@link
 * dev.hoplock.core.election.ElectorStatus}). On the in-memory store the start also waits (briefly) for their first
 * round, so that a test's context is up with its elections decided.
 *
 * <h2>Close and stop: leader work first</h2>
 * The phase is {@link SmartLifecycle#DEFAULT_PHASE}, the highest ({@link ClosingLifecycle}), so this stops before the
 * web server's graceful shutdown ({@code DEFAULT_PHASE - 1024}) and before the task scheduler waits for running tasks
 * ({@code Integer.MAX_VALUE / 2}); Spring has already cancelled future {@code @Scheduled} runs at the context-closed
 * event, before any lifecycle stops. When the context closes, the stop closes every elector at once: the term ends
 * (a {@code @LeaderOnly} call checked after that is skipped), open {@code @LeaderOnly} calls are interrupted and
 * awaited up to the release timeout, then the lease is released, so a follower takes over at its next poll; the stop
 * callback runs when every elector is closed.
 *
 * <p>A stop that is not a close ({@code context.stop()}, Spring Framework 7's {@code pause()}) gives the same
 * guarantees without closing: it withdraws this application from every election at once
 * ({@link HoplockElections#withdraw(String)}, reason {@link #STOPPED}): the term ends, open {@code @LeaderOnly} calls
 * are interrupted and awaited up to the release timeout, then the lease is released; no claim is written while
 * stopped, and {@code @WithLock} calls are skipped without a store request (the one {@link Candidacy} every primitive
 * follows). The stop callback runs when every lease this application held is released, or, if leader work did not
 * stop in time (the lease is then left to expire), after the request timeout plus twice the release timeout. The
 * electors keep following their elections (reads only) until the context starts again or closes.
 *
 * <h2>Start again</h2>
 * A start after a stop ({@code context.start()}, or {@code restart()} after Spring Framework 7's {@code pause()},
 * which its test context cache calls on a context switch) campaigns again if this stop withdrew it: the electors are
 * the same, they never closed. A step-down keeps an elector from claiming for one TTL, so that another instance can
 * take over: a start within a TTL of the stop claims once that TTL has passed. On the in-memory store the start waits
 * for that first round as the first start does ({@link #awaitFirstRound}), and, within a TTL of the stop, for the rest
 * of that TTL too, so that a test can call a {@code @LeaderOnly} method at once after a restart. The stop and readiness
 * withdraw the application each on its own account ({@link Candidacy.Source}): a context stopped while not ready or
 * refusing traffic starts again withdrawn until it accepts traffic, and one that accepts traffic while stopped takes
 * part only once it starts ({@link ReadinessCandidacy}).
 * A context closed while stopped closes the electors at bean destruction ({@link HoplockElections#close()}, the bean's
 * destroy method); their leases were released at the stop.
 */
final class HoplockLifecycle extends ClosingLifecycle
        implements ApplicationListener<ContextClosedEvent>, ApplicationContextAware {

    private static final Logger log = LoggerFactory.getLogger(HoplockLifecycle.class);

    /** The longest the start waits for the first round of elections on the in-memory store. */
    static final Duration FIRST_ROUND_WAIT = Duration.ofSeconds(2);

    /** The reason the candidacy shows while the context is stopped (health, the endpoint). */
    static final String STOPPED = "the application context is stopped (stop() or a test context cache's pause());"
            + " hoplock takes part again when it starts";

    private final HoplockElections elections;
    private final Backend backend;
    /** True from a stop that withdrew a candidate until the next start, which campaigns again. */
    private boolean withdrawnByStop;
    /** When that stop withdrew ({@link System#nanoTime()}). */
    private long stoppedAt;
    /** True once this context is closing (its ContextClosedEvent comes before its lifecycles stop). */
    private volatile boolean closing;
    private @Nullable ApplicationContext context;

    /**
     * @param elections the electors
     * @param backend   the store as configured (not decorated): on the in-memory store the start awaits a first round
     */
    HoplockLifecycle(HoplockElections elections, Backend backend) {
        this.elections = Objects.requireNonNull(elections, "elections");
        this.backend = Objects.requireNonNull(backend, "backend");
    }

    @Override
    void begin() {
        if (withdrawnByStop) {
            withdrawnByStop = false;
            if (elections.candidacy().isWithheldBesides(Candidacy.Source.LIFECYCLE)) {
                // Not ready yet, or refusing traffic (possibly since the stop): that withdrawal stands.
                elections.campaign(Candidacy.Source.LIFECYCLE);
                log.info("hoplock: the application context started again, not taking part in {}: {}",
                        elections.names(), elections.candidacy().withdrawnBecause().orElse(""));
                return;
            }
            log.info("hoplock: the application context started again: campaigning in {}", elections.names());
            if (backend instanceof InMemoryBackend) {
                // The step-down at the stop keeps each elector from claiming for one TTL: wait that out too, so that
                // a test can call a @LeaderOnly method at once after a restart, as after the first start.
                Duration sinceStop = Duration.ofNanos(System.nanoTime() - stoppedAt);
                Duration paused = maxTtl().minus(sinceStop);
                awaitFirstRound(elections, () -> elections.campaign(Candidacy.Source.LIFECYCLE),
                        paused.isNegative() ? FIRST_ROUND_WAIT : FIRST_ROUND_WAIT.plus(paused));
            } else {
                elections.campaign(Candidacy.Source.LIFECYCLE);
            }
            return;
        }
        if (!elections.candidacy().isCandidate()) {
            // hoplock.campaign-when=ready: ReadinessCandidacy starts the electors once the application is ready.
            return;
        }
        if (backend instanceof InMemoryBackend) {
            awaitFirstRound(elections, elections::startAll);
        } else {
            elections.startAll();
        }
    }

    /**
     * The in-memory store answers at once, and its applications are mostly tests: the start returns once every
     * election has had its first round (led, or seen another holder), bounded by {@link #FIRST_ROUND_WAIT}, so that
     * a test can call a {@code @LeaderOnly} method as soon as its context is up.
     */
    static void awaitFirstRound(HoplockElections elections, Runnable begin) {
        awaitFirstRound(elections, begin, FIRST_ROUND_WAIT);
    }

    /** {@link #awaitFirstRound(HoplockElections, Runnable)}, bounded by {@code wait}. */
    static void awaitFirstRound(HoplockElections elections, Runnable begin, Duration wait) {
        Map<String, CountDownLatch> rounds = new LinkedHashMap<>();
        List<AutoCloseable> listeners = new ArrayList<>();
        elections.asMap().forEach((name, elector) -> {
            CountDownLatch round = new CountDownLatch(1);
            rounds.put(name, round);
            listeners.add(elector.addListener(event -> {
                if (event instanceof ElectionEvent.Acquired || event instanceof ElectionEvent.Problem
                        || (event instanceof ElectionEvent.LeaderObserved observed && observed.holder().isPresent()
                        && !observed.holder().get().owner().equals(elector.owner()))) {
                    round.countDown();
                }
            }));
        });
        try {
            begin.run();
            long deadline = System.nanoTime() + wait.toNanos();
            for (CountDownLatch round : rounds.values()) {
                if (!round.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            for (AutoCloseable listener : listeners) {
                try {
                    listener.close();
                } catch (Exception e) {
                    log.debug("hoplock: closing a start-up listener failed", e);
                }
            }
        }
    }

    @Override
    public void setApplicationContext(ApplicationContext context) {
        this.context = context;
    }

    /** This context closes (not a child's close, which its parent's listeners also hear): the stop closes for good. */
    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        if (event.getApplicationContext() == context) {
            closing = true;
        }
    }

    @Override
    CompletableFuture<?> endAsync() {
        if (closing) {
            return elections.closeAllAsync();
        }
        if (!elections.candidacy().isCandidate()) {
            // Not taking part (not ready yet, or refusing traffic): nothing held to release, but the stop is recorded
            // too, so that readiness coming back while stopped does not campaign before the start.
            withdrawnByStop = true;
            stoppedAt = System.nanoTime();
            elections.withdraw(Candidacy.Source.LIFECYCLE, STOPPED);
            return CompletableFuture.completedFuture(null);
        }
        List<CompletableFuture<Void>> releases = new ArrayList<>();
        Duration bound = Duration.ZERO;
        for (Elector elector : elections.asMap().values()) {
            if (elector.isLeader()) {
                releases.add(released(elector));
            }
            ElectorSettings settings = elector.settings();
            Duration own = settings.requestTimeout().plus(settings.releaseTimeout().abs().multipliedBy(2));
            bound = own.compareTo(bound) > 0 ? own : bound;
        }
        withdrawnByStop = true;
        stoppedAt = System.nanoTime();
        elections.withdraw(Candidacy.Source.LIFECYCLE, STOPPED);
        Duration wait = bound;
        return CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new))
                .completeOnTimeout(null, wait.toNanos(), TimeUnit.NANOSECONDS)
                .whenComplete((done, error) -> releases.forEach(release -> {
                    if (!release.isDone()) {
                        log.info("hoplock: the context stopped, and a lease was not seen released within {} (leader"
                                + " work still running, or the store slow): it is released later or expires", wait);
                    }
                }));
    }

    private Duration maxTtl() {
        return elections.asMap().values().stream().map(elector -> elector.settings().ttl())
                .max(Duration::compareTo).orElse(Duration.ZERO);
    }

    /**
     * Completes when {@code elector}, leading now, is seen not to hold its lease any more: its release was written
     * (the holder it observes is empty or another). Listens before the step-down, so the event cannot be missed.
     */
    private static CompletableFuture<Void> released(Elector elector) {
        CompletableFuture<Void> released = new CompletableFuture<>();
        AutoCloseable listener = elector.addListener(event -> {
            if (event instanceof ElectionEvent.LeaderObserved observed && observed.holder()
                    .map(holder -> !holder.owner().equals(elector.owner())).orElse(true)) {
                released.complete(null);
            }
        });
        released.whenComplete((done, error) -> {
            try {
                listener.close();
            } catch (Exception e) {
                log.debug("hoplock: closing a stop listener failed", e);
            }
        });
        return released;
    }

    @Override
    void awaitEnd(CompletableFuture<?> ending) {
        if (closing) {
            elections.close();
        } else {
            ending.join();
        }
    }
}
