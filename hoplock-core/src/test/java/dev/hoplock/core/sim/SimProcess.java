package dev.hoplock.core.sim;

import dev.hoplock.core.ElectionEvent;
import dev.hoplock.core.Elector;

/**
 * One incarnation of the program on a {@link Machine}: a real {@link Elector} with its own owner id, driven by the
 * machine's {@link NodeClock} and talking to the store through a {@link NetBackend}. A crash kills it; a restart is a
 * new {@code SimProcess} with a new owner.
 */
final class SimProcess {

    final Simulation sim;
    final Machine machine;
    final String owner;
    final NodeClock clock;
    final NetBackend backend;
    final Elector elector;

    /** Local monotonic send time of this process's latest write that the store applied (owner = this process). */
    long lastAppliedT0;
    boolean hasApplied;
    boolean closing;
    boolean closed;
    private boolean leadingByEvents;

    SimProcess(Simulation sim, Machine machine, String owner) {
        this.sim = sim;
        this.machine = machine;
        this.owner = owner;
        this.clock = new NodeClock(sim, machine);
        this.backend = new NetBackend(sim, this);
        Simulation.Config c = sim.config;
        this.elector = Elector.builder(backend, Simulation.KEY)
                .owner(owner)
                .ttl(c.ttl()).renewInterval(c.renew()).pollInterval(c.poll()).safetyMargin(c.margin())
                .requestTimeout(c.requestTimeout()).releaseByDelete(c.releaseByDelete())
                .timeSource(clock).scheduler(clock).eventExecutor(Runnable::run)
                .build();
        elector.addListener(this::onEvent);
    }

    boolean alive() {
        return !clock.dead();
    }

    void noteApplied(long t0) {
        if (!hasApplied || t0 - lastAppliedT0 > 0) {
            lastAppliedT0 = t0;
            hasApplied = true;
        }
    }

    private void onEvent(ElectionEvent event) {
        if (event instanceof ElectionEvent.Acquired acquired) {
            if (leadingByEvents) {
                sim.violation(this, "two Acquired events without a Lost in between");
            }
            leadingByEvents = true;
            sim.stats.terms++;
            sim.trace(this, "ACQUIRED generation " + acquired.lease().generation());
        } else if (event instanceof ElectionEvent.Lost lost) {
            if (!leadingByEvents) {
                sim.violation(this, "a Lost event without an Acquired before it");
            }
            leadingByEvents = false;
            if (elector.isLeader()) {
                sim.violation(this, "a Lost event was delivered while isLeader() still answers true");
            }
            sim.stats.count("loss." + lost.cause());
            sim.trace(this, "LOST generation " + lost.lease().generation() + " (" + lost.cause() + ": " + lost.detail() + ")");
        } else if (event instanceof ElectionEvent.Problem problem) {
            sim.stats.count("problem." + problem.kind());
            // Only electors write in the simulation: these would be bugs, not bad input.
            if (problem.kind() == ElectionEvent.ProblemKind.CORRUPT_RECORD) {
                sim.violation(this, "an elector found a corrupt record: " + problem.message());
            }
            if (problem.kind() == ElectionEvent.ProblemKind.GENERATION_REGRESSED && !sim.config.releaseByDelete()) {
                sim.violation(this, "the generation went down although nothing deletes the record: " + problem.message());
            }
            if (problem.message().contains("internal error")) {
                sim.violation(this, problem.message());
            }
            if (problem.kind() != ElectionEvent.ProblemKind.BACKEND_ERROR) {
                sim.trace(this, "PROBLEM " + problem.kind() + ": " + problem.message());
            }
        }
    }

    @Override
    public String toString() {
        return owner;
    }
}
