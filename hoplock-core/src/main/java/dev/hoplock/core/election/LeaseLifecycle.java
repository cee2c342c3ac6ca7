package dev.hoplock.core.election;

import dev.hoplock.core.internal.lease.Owned;
import dev.hoplock.core.internal.lease.Term;
import dev.hoplock.core.time.HumanDurations;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The lifecycle of a {@link LeaseLoop}: start, step down, close, the status snapshot and waiting for leadership, under
 * the loop's lock. Rule 7 of the {@link Elector}'s safety argument (release only after leader work stopped) is applied
 * here for both ways a process gives a lease up.
 *
 * <p>Guarantees: a step-down or close ends the current term first (scopes told), then waits for every scope of every
 * term of this process to close ({@link Leadership#workStopped()}, bounded by the release timeout) and only then
 * releases; if work is still running at the timeout the lease is kept and left to expire (logged). A closed elector
 * never campaigns again; {@link #closeAsync} completes once, never exceptionally.
 * <p>Implements E7 (when a release is sent); text in {@link Elector}.
 */
final class LeaseLifecycle {

    private static final Logger log = LoggerFactory.getLogger(Elector.class);

    private final LeaseLoop loop;
    private final Leadership leadership;
    private final ElectorSettings settings;
    private final Runnable releaseThreads;
    private @Nullable CompletableFuture<Void> closed;

    /**
     * @param releaseThreads stops the threads the elector owns; runs once, when closing has finished
     */
    LeaseLifecycle(LeaseLoop loop, Runnable releaseThreads) {
        this.loop = loop;
        this.leadership = loop.leadership;
        this.settings = loop.settings;
        this.releaseThreads = releaseThreads;
    }

    void start() {
        synchronized (loop) {
            if (leadership.role() == Role.STOPPED || loop.stopping()) {
                throw new IllegalStateException("elector for '" + settings.key() + "' is closed; build a new one");
            }
            if (leadership.role() != Role.NEW) {
                return;
            }
            leadership.setRole(Role.FOLLOWER);
            log.info("hoplock: elector for '{}' started as {} over {} (ttl {}, renew {}, poll {})", settings.key(),
                    settings.owner(), loop.backend.describe(), HumanDurations.format(settings.ttl()),
                    HumanDurations.format(settings.renewInterval()), HumanDurations.format(settings.pollInterval()));
            loop.scheduleStep(Duration.ZERO);
        }
    }

    /** A snapshot for health checks. */
    ElectorStatus status() {
        synchronized (loop) {
            Term current = leadership.term();
            Term leading = current != null && current.isValid() ? current : null;
            Role role = leadership.role();
            Role shown = role == Role.LEADER && leading == null ? Role.FOLLOWER : role;
            return new ElectorStatus(settings.key(), settings.owner(), loop.backend.describe(), shown,
                    leading != null ? Optional.of(leading.lease()) : Optional.empty(),
                    leading != null ? leading.timeLeft() : Duration.ZERO,
                    leadership.holder(), loop.health.sinceLastAnswer(), Optional.ofNullable(loop.health.lastError()),
                    loop.verification.state(), loop.verification.capabilities(), loop.verification.reason());
        }
    }

    /** Rule 7 for a step-down: see {@link Elector#stepDown()}. */
    boolean stepDown() {
        synchronized (loop) {
            if (!leadership.isLeader()) {
                return false;
            }
            leadership.end(LossCause.STEPPED_DOWN, "stepped down on request");
            loop.pauseCampaign();
            if (settings.releaseTimeout().isNegative()) {
                loop.transition(LeaseLoop.Change.REQUEST_RELEASE);
                loop.scheduleStep(Duration.ZERO);
                return true;
            }
            leadership.workStopped().thenAccept(stoppedInTime -> {
                synchronized (loop) {
                    if (loop.stopping()) {
                        return;
                    }
                    if (!stoppedInTime) {
                        leadership.warnWorkStillRunning("stepping down", loop.owned());
                        return;
                    }
                    loop.transition(LeaseLoop.Change.REQUEST_RELEASE);
                    loop.scheduleStep(Duration.ZERO);
                }
            });
            return true;
        }
    }

    /** Rule 7 for a close: see {@link Elector#closeAsync()}. */
    CompletableFuture<Void> closeAsync() {
        CompletableFuture<Boolean> workStopped;
        CompletableFuture<Void> done;
        synchronized (loop) {
            if (closed != null) {
                return closed;
            }
            closed = new CompletableFuture<>();
            done = closed;
            loop.transition(LeaseLoop.Change.STOP);
            loop.cancelNextStep();
            leadership.end(LossCause.STOPPED, "elector closed");
            workStopped = leadership.workStopped();
        }
        workStopped
                // After the request in flight was answered (or abandoned): a renewal's answer updates the handle.
                .thenCompose(stoppedInTime -> loop.requests.idle().thenApply(v -> stoppedInTime))
                .thenCompose(this::releaseOnClose)
                .whenComplete((v, e) -> {
                    if (e != null) {
                        log.warn("hoplock: closing the elector for '{}' failed", settings.key(), e);
                    }
                    synchronized (loop) {
                        leadership.setRole(Role.STOPPED);
                        leadership.cancelFence();
                        loop.requests.cancelTimeout();
                    }
                    log.info("hoplock: elector for '{}' ({}) stopped", settings.key(), settings.owner());
                    loop.events.complete();
                    loop.timers.close();
                    releaseThreads.run();
                    done.complete(null);
                });
        return done;
    }

    /**
     * {@link Elector#close()}: {@link #closeAsync()} and waits for it, bounded by the request timeout plus twice the
     * release timeout plus 5 s (the reasons are on {@link Elector#close()}); past the bound it returns and logs.
     */
    void close() {
        long bound = settings.requestTimeout().plus(settings.releaseTimeout().abs().multipliedBy(2)).toMillis() + 5_000;
        try {
            closeAsync().get(bound, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("hoplock: elector for '{}' did not finish closing within {}", settings.key(),
                    HumanDurations.format(Duration.ofMillis(bound)));
        }
    }

    boolean isStopped() {
        synchronized (loop) {
            return loop.stopping();
        }
    }

    /** Waits until this process leads and opens a scope (interrupted on loss), or returns null once stopped. */
    @Nullable LeaderScope awaitLeadership() throws InterruptedException {
        synchronized (loop) {
            while (true) {
                if (loop.stopping()) {
                    return null;
                }
                Term current = leadership.term();
                LeaderScope scope = current == null ? null : current.open(true);
                if (scope != null) {
                    return scope;
                }
                loop.wait(Math.max(1, settings.pollInterval().toMillis()));
            }
        }
    }

    private CompletableFuture<Void> releaseOnClose(boolean workStopped) {
        synchronized (loop) {
            Owned owned = loop.owned();
            if (owned == null || settings.releaseTimeout().isNegative()) {
                return CompletableFuture.completedFuture(null);
            }
            if (!workStopped) {
                leadership.warnWorkStillRunning("closing", owned);
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> released = new CompletableFuture<>();
            loop.release.send(owned, settings.releaseTimeout(),
                    () -> loop.transition(LeaseLoop.Change.DISOWN),
                    () -> released.complete(null));
            return released;
        }
    }
}
