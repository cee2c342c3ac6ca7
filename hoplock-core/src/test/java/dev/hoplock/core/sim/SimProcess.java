package dev.hoplock.core.sim;

import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.SimulationSeams;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One incarnation of the program on a {@link Machine}: a real {@link Elector} with its own owner id, driven by the
 * machine's {@link NodeClock}, talking to the store through a {@link NetBackend}, with one or two {@link Worker}s
 * doing leader work. A crash kills it; a restart is a new {@code SimProcess} with a new owner.
 */
final class SimProcess {

    /** What happens to the renewal during which a step-down is injected. */
    enum RenewalFate {
        /** The renewal is applied and answered. */
        ANSWERED,
        /** The store answers 409 without applying it: the record is still ours. */
        REFUSED_409,
        /** The request is lost: no answer, the elector's timeout ends it. */
        LOST
    }

    final Simulation sim;
    final Machine machine;
    final String owner;
    final NodeClock clock;
    final NetBackend backend;
    final Elector elector;
    final List<Worker> workers = new ArrayList<>();

    /** Local monotonic send time of this process's latest write that the store applied (owner = this process). */
    long lastAppliedT0;
    /** Shared (true) time at which that write was sent. */
    long lastAppliedSharedT0;
    boolean hasApplied;
    boolean closing;
    boolean closed;
    /** Set by a fault: the next renewal this process sends meets this fate, and it steps down while it is in flight. */
    RenewalFate stepDownAtRenewal;
    /**
     * The owner of the record this process last saw, by a read or by a write of its own that the store confirmed:
     * "" when that showed no record or a released one.
     */
    String lastSeenOwner = "";
    /** Shared time of the last step-down injected during a renewal, or -1. */
    long steppedDownDuringRenewalAt = -1;
    private boolean leadingByEvents;

    SimProcess(Simulation sim, Machine machine, String owner) {
        this.sim = sim;
        this.machine = machine;
        this.owner = owner;
        this.clock = new NodeClock(sim, machine);
        this.backend = new NetBackend(sim, this);
        Machine.Timing t = machine.timing;
        Elector.Builder builder = Elector.builder(backend, Simulation.KEY)
                .owner(owner)
                .ttl(t.ttl()).renewInterval(t.renew()).pollInterval(t.poll()).safetyMargin(t.margin())
                .requestTimeout(t.requestTimeout()).releaseByDelete(sim.config.releaseByDelete())
                .timeSource(clock).scheduler(clock).eventExecutor(Runnable::run);
        // A timer the (faulty) scheduler refused runs on the elector's fallback timer: here one on this process's
        // virtual clock, never a real thread.
        this.elector = SimulationSeams.fallbackScheduler(builder, clock.fallback()).build();
        elector.addListener(this::onEvent);
        int count = sim.config.faults().contains(Simulation.Fault.LEADER_WORK) ? 1 + sim.random.nextInt(2) : 0;
        for (int i = 0; i < count; i++) {
            Worker.Style style = Worker.Style.values()[sim.random.nextInt(Worker.Style.values().length)];
            if (sim.healed() && style == Worker.Style.IGNORES_LOSS) {
                style = Worker.Style.POLLS_IS_LEADING;
            }
            workers.add(new Worker(this, "w" + i, style));
        }
    }

    boolean alive() {
        return !clock.dead();
    }

    /** Starts the elector and the leader work. */
    void start() {
        api(() -> elector.start());
        for (Worker w : workers) {
            w.start();
        }
    }

    /** {@link Elector#stepDown()}, traced; the scheduler-failure fault spares calls of the public API. */
    void stepDown(String why) {
        api(() -> sim.trace(this, "STEP DOWN" + why + " -> " + elector.stepDown()));
    }

    /** {@link Elector#closeAsync()}, traced. */
    CompletableFuture<Void> close(String why) {
        sim.trace(this, "CLOSE" + why);
        closing = true;
        CompletableFuture<Void> done = new CompletableFuture<>();
        api(() -> elector.closeAsync().whenComplete((v, e) -> {
            closed = true;
            done.complete(null);
        }));
        return done;
    }

    private void api(Runnable call) {
        clock.inApiCall = true;
        try {
            call.run();
        } finally {
            clock.inApiCall = false;
        }
    }

    void noteApplied(long t0, long sharedT0) {
        if (!hasApplied || t0 - lastAppliedT0 > 0) {
            lastAppliedT0 = t0;
            lastAppliedSharedT0 = sharedT0;
            hasApplied = true;
        }
    }

    /** Every scope of this process's leader work that is open now. */
    List<Worker.Open> openScopes() {
        List<Worker.Open> all = new ArrayList<>();
        for (Worker w : workers) {
            all.addAll(w.open);
        }
        return all;
    }

    private void onEvent(ElectionEvent event) {
        if (event instanceof ElectionEvent.Acquired acquired) {
            if (leadingByEvents) {
                sim.violation(this, "two Acquired events without a Lost in between (a term was replaced without"
                        + " ending)");
            }
            for (Worker.Open open : openScopes()) {
                if (!open.scope.wasLost()) {
                    sim.violation(this, "a new term (generation " + acquired.lease().generation() + ") began while "
                            + open + " of an earlier term was never told that its term ended");
                }
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
            if (problem.kind() == ElectionEvent.ProblemKind.GENERATION_REGRESSED && !sim.config.releaseByDelete()
                    && sim.externalDeletes == 0) {
                sim.violation(this, "the generation went down although nothing deletes the record: " + problem.message());
            }
            if (problem.message().contains("internal error") && !problem.message().contains(NodeClock.INJECTED)) {
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
