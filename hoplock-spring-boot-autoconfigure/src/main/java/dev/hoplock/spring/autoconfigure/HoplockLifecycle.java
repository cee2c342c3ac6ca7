package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.spring.leader.HoplockElections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

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
 * <h2>Stop: leader work first</h2>
 * The phase is {@link SmartLifecycle#DEFAULT_PHASE}, the highest ({@link ClosingLifecycle}), so this stops before the
 * web server's graceful shutdown ({@code DEFAULT_PHASE - 1024}) and before the task scheduler waits for running tasks
 * ({@code Integer.MAX_VALUE / 2}); Spring has already cancelled future {@code @Scheduled} runs at the context-closed
 * event, before any lifecycle stops. Stopping closes every elector at once: the term ends (a {@code @LeaderOnly} call
 * checked after that is skipped), open {@code @LeaderOnly} calls are interrupted and awaited up to the release timeout,
 * then the lease is released, so a follower takes over at its next poll. The stop callback runs when every elector is
 * closed. Electors cannot be restarted once stopped.
 */
final class HoplockLifecycle extends ClosingLifecycle {

    private static final Logger log = LoggerFactory.getLogger(HoplockLifecycle.class);

    /** The longest the start waits for the first round of elections on the in-memory store. */
    static final Duration FIRST_ROUND_WAIT = Duration.ofSeconds(2);

    private final HoplockElections elections;
    private final Backend backend;

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
            long deadline = System.nanoTime() + FIRST_ROUND_WAIT.toNanos();
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
    CompletableFuture<?> closeAsync() {
        return elections.closeAllAsync();
    }

    @Override
    void close() {
        elections.close();
    }
}
