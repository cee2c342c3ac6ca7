package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.ElectionEvent;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.spring.BackendVerifier;
import dev.hoplock.spring.HoplockElections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Starts the electors with the application context and stops them first on shutdown.
 *
 * <h2>Start</h2>
 * When a {@link BackendVerifier} applies to the store (S3 with {@code hoplock.probe=true}), it runs first, on its own
 * thread, so that a slow store does not hold up the context; the electors start once it passed. A store that
 * could not be asked is asked again every poll interval; a store that refused is never campaigned on. Without a
 * verifier, the electors start at once; on the in-memory store the start also waits (briefly) for their first
 * round, so that a test's context is up with its elections decided.
 *
 * <h2>Stop: leader work first</h2>
 * The phase is {@link SmartLifecycle#DEFAULT_PHASE}, the highest, so this stops before the web server's graceful
 * shutdown ({@code DEFAULT_PHASE - 1024}) and before the task scheduler waits for running tasks
 * ({@code Integer.MAX_VALUE / 2}); Spring has already cancelled future {@code @Scheduled} runs at the context-closed
 * event, before any lifecycle stops. Stopping closes every elector at once: the term ends (a {@code @LeaderOnly}
 * call checked after that is skipped), open {@code @LeaderOnly} calls are interrupted and awaited up to the release
 * timeout, then the lease is released, so a follower takes over at its next poll. The stop callback runs when every
 * elector is closed. Electors cannot be restarted once stopped.
 */
final class HoplockLifecycle implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(HoplockLifecycle.class);

    /** The longest the start waits for the first round of elections on the in-memory store. */
    static final Duration FIRST_ROUND_WAIT = Duration.ofSeconds(2);

    private final HoplockElections elections;
    private final Backend backend;
    private final List<BackendVerifier> verifiers;
    private final StoreVerification verification;
    private final Duration retryDelay;
    private boolean running;
    private ScheduledExecutorService verifierThread;
    /** The kind of the failure last logged while the check is retried; null when none is pending. */
    private String reportedKind;
    private int failedAttempts;
    private long firstFailureNanos;

    /**
     * @param elections    the electors
     * @param backend      the store as configured (not decorated): the verifiers check this
     * @param verifiers    the verifiers; those that apply to {@code backend} must pass before campaigning
     * @param verification where the verification's state is published
     */
    HoplockLifecycle(HoplockElections elections, Backend backend, List<BackendVerifier> verifiers,
            StoreVerification verification) {
        this.elections = Objects.requireNonNull(elections, "elections");
        this.backend = Objects.requireNonNull(backend, "backend");
        this.verifiers = List.copyOf(verifiers);
        this.verification = Objects.requireNonNull(verification, "verification");
        this.retryDelay = elections.asMap().values().stream()
                .map(elector -> elector.settings().pollInterval())
                .min(Duration::compareTo)
                .orElse(Duration.ofSeconds(1));
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        List<BackendVerifier> applicable = verifiers.stream().filter(v -> v.appliesTo(backend)).toList();
        if (applicable.isEmpty()) {
            verification.notRequired();
            if (backend instanceof InMemoryBackend) {
                startAndAwaitFirstRound();
            } else {
                elections.startAll();
            }
            return;
        }
        verification.pending(null);
        verifierThread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "hoplock-verify-store");
            thread.setDaemon(true);
            return thread;
        });
        verifierThread.execute(() -> verifyThenStart(applicable));
    }

    /**
     * The in-memory store answers at once, and its applications are mostly tests: the start returns once every
     * election has had its first round (led, or seen another holder), bounded by {@link #FIRST_ROUND_WAIT}, so that
     * a test can call a {@code @LeaderOnly} method as soon as its context is up.
     */
    private void startAndAwaitFirstRound() {
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
            elections.startAll();
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

    private void verifyThenStart(List<BackendVerifier> applicable) {
        try {
            for (BackendVerifier verifier : applicable) {
                verifier.verify(backend);
            }
        } catch (BackendException e) {
            if (e.kind() == BackendException.Kind.CONDITIONAL_WRITES_NOT_SUPPORTED) {
                verification.refused(e.getMessage());
                log.error("hoplock: {} refused the conditional-write check, so it could let two leaders coexist; no"
                        + " election is campaigned on it: {}", backend.describe(), e.getMessage());
                return;
            }
            retryLater(applicable, e.kind().name(), e.getMessage());
            return;
        } catch (RuntimeException e) {
            retryLater(applicable, e.getClass().getName(), "the check failed unexpectedly: " + e);
            return;
        }
        synchronized (this) {
            verification.passed();
            if (running) {
                if (failedAttempts > 0) {
                    log.info("hoplock: {} answered after {} failed attempts ({}) and passed the conditional-write"
                                    + " check; starting {}", backend.describe(), failedAttempts,
                            HumanDurations.format(Duration.ofNanos(System.nanoTime() - firstFailureNanos)),
                            elections.names());
                } else {
                    log.info("hoplock: {} passed the conditional-write check; starting {}", backend.describe(),
                            elections.names());
                }
                elections.startAll();
            }
        }
    }

    /**
     * Records a failed check and schedules the next. Logged once per kind of failure, not once per attempt: the
     * messages differ between attempts (the probe key is random), the kind (unreachable, access denied, ...) does
     * not while the cause stays the same.
     */
    private synchronized void retryLater(List<BackendVerifier> applicable, String kind, String failure) {
        if (!running) {
            return; // stopped while the check ran: its failure (often the interruption) says nothing
        }
        verification.pending(failure);
        if (failedAttempts++ == 0) {
            firstFailureNanos = System.nanoTime();
        }
        if (!kind.equals(reportedKind)) {
            reportedKind = kind;
            log.warn("hoplock: cannot check {} yet, retrying every {} (logged again only if the failure changes);"
                            + " elections start once it answers: {}", backend.describe(),
                    HumanDurations.format(retryDelay), failure);
        }
        verifierThread.schedule(() -> verifyThenStart(applicable), retryDelay.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void stop(Runnable callback) {
        synchronized (this) {
            running = false;
            if (verifierThread != null) {
                verifierThread.shutdownNow();
            }
        }
        elections.closeAllAsync().whenComplete((done, error) -> callback.run());
    }

    @Override
    public void stop() {
        synchronized (this) {
            running = false;
            if (verifierThread != null) {
                verifierThread.shutdownNow();
            }
        }
        elections.close();
    }

    @Override
    public synchronized boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }
}
