package dev.hoplock.core.sim;

import dev.hoplock.core.election.LeaderScope;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Simulated leader work on one thread of a {@link SimProcess}: it opens scopes with
 * {@link dev.hoplock.core.election.Elector#enterLeaderScope(boolean)} (sometimes nested two or three deep, as nested
 * {@code @LeaderOnly} calls do), holds them for a random stretch of virtual time (often across the term's deadline),
 * and then closes them innermost first. How it treats the end of the term depends on its {@link Style}.
 *
 * <p>The simulation runs on one real thread, so every scope records that thread. An interrupt a scope delivers lands
 * on it during some simulation step; the {@link Checker} takes it off right after that step and hands it to the
 * workers whose scopes were told in that step ({@link #interrupted()}): the worker's own interrupt flag.
 */
final class Worker {

    /** How the work reacts to the end of its term. */
    enum Style {
        /**
         * Opens its outermost scope asking for an interrupt and stops (closes every scope) soon after one arrives; every
         * second piece of work opens it with a loss callback instead (reactive work,
         * {@link dev.hoplock.core.election.Elector#tryEnterLeaderScope(Runnable)}) and stops soon after the callback.
         */
        HONOURS_INTERRUPT,
        /** Checks {@code isLeading()} of its outermost scope every 20 to 400 ms and stops when it is false. */
        POLLS_IS_LEADING,
        /** Ignores the loss: works until it is done, and only then closes its scopes. */
        IGNORES_LOSS
    }

    /** One open scope and what the checker has seen of it. */
    static final class Open {
        final Worker worker;
        final LeaderScope scope;
        final boolean interruptOnLoss;
        /** Opened with a loss callback, which counts its calls here. */
        final boolean callback;
        int callbackCalls;
        /** Closed by its worker: a callback after this is a violation. */
        boolean closed;
        final int depth;
        final long generation;
        /** The checker has seen {@code wasLost()} true. */
        boolean toldSeen;
        /** Shared time at which the checker first saw it un-told although its term had ended, or null. */
        Long untoldSince;

        Open(Worker worker, LeaderScope scope, boolean interruptOnLoss, boolean callback, int depth) {
            this.worker = worker;
            this.scope = scope;
            this.interruptOnLoss = interruptOnLoss;
            this.callback = callback;
            this.depth = depth;
            this.generation = scope.lease().generation();
        }

        @Override
        public String toString() {
            return worker.name + " scope depth " + depth + " (generation " + generation
                    + (interruptOnLoss ? ", interrupt on loss" : "") + (callback ? ", loss callback" : "") + ")";
        }
    }

    private static final long MS = 1_000_000L;

    final SimProcess process;
    final String name;
    Style style;
    /** Open scopes, outermost first. */
    final List<Open> open = new ArrayList<>();
    /** This worker's thread-interrupt flag, as the checker attributed it. */
    private boolean interruptFlag;
    /** The loss callback of this worker's outermost scope ran (the reactive counterpart of the interrupt). */
    private boolean lossCalled;
    private long doneAtLocal;
    /** Counts pieces of work, so that a tick of an earlier piece does nothing. */
    private long piece;

    Worker(SimProcess process, String name, Style style) {
        this.process = process;
        this.name = name;
        this.style = style;
    }

    void start() {
        later(this::attempt, process.sim.uniform(0, 1_000 * MS));
    }

    /** Tries to start a piece of leader work. */
    private void attempt() {
        Simulation sim = process.sim;
        if (process.closing) {
            return;
        }
        boolean interrupt = style == Style.HONOURS_INTERRUPT || (style == Style.IGNORES_LOSS && sim.random.nextBoolean());
        // Every second piece of an interrupt-honouring worker is reactive: a loss callback instead of the interrupt
        // (chosen without a random draw, so that the schedules stay those of the seeds).
        boolean callback = style == Style.HONOURS_INTERRUPT && piece % 2 == 1;
        Open[] self = new Open[1];
        Optional<LeaderScope> outer = callback
                ? Optional.ofNullable(process.elector.tryEnterLeaderScope(() -> lossCallback(self[0])))
                : process.elector.enterLeaderScope(interrupt);
        if (outer.isEmpty()) {
            later(this::attempt, sim.uniform(500 * MS, 3_000 * MS));
            return;
        }
        interruptFlag = false;
        lossCalled = false;
        piece++;
        self[0] = push(outer.get(), interrupt && !callback, callback);
        int extra = sim.random.nextInt(10) < 4 ? 1 + sim.random.nextInt(2) : 0;
        for (int i = 0; i < extra; i++) {
            openNested();
        }
        long ttl = process.machine.timing.ttl().toNanos();
        doneAtLocal = process.clock.nanoTime() + sim.uniform(50 * MS, ttl * 3 / 2);
        sim.trace(process, name + " opens " + open.size() + " scope(s) at generation " + open.get(0).generation
                + ", " + style + ", works for " + (doneAtLocal - process.clock.nanoTime()) / MS + "ms");
        scheduleTick();
    }

    private void openNested() {
        boolean interrupt = process.sim.random.nextBoolean();
        Optional<LeaderScope> inner = process.elector.enterLeaderScope(interrupt);
        if (inner.isPresent()) {
            push(inner.get(), interrupt, false);
            process.sim.stats.count("work.nested-scopes");
        }
    }

    private Open push(LeaderScope scope, boolean interrupt, boolean callback) {
        Open opened = new Open(this, scope, interrupt, callback, open.size());
        open.add(opened);
        process.sim.stats.count("work.scopes");
        return opened;
    }

    /**
     * The loss callback of {@code o} (null: the loss came before the scope was recorded, which cannot happen on the
     * simulation's one thread): it must come once, after the scope reports the loss, and never after it closed.
     */
    private void lossCallback(Open o) {
        Simulation sim = process.sim;
        if (o == null) {
            sim.violation(process, name + ": a loss callback ran before its scope was opened");
            return;
        }
        o.callbackCalls++;
        sim.stats.count("work.loss-callbacks");
        if (o.closed) {
            sim.violation(process, o + ": its loss callback ran after the scope closed");
        }
        if (o.callbackCalls > 1) {
            sim.violation(process, o + ": its loss callback ran " + o.callbackCalls + " times");
        }
        if (!o.scope.wasLost() || o.scope.isLeading()) {
            sim.violation(process, o + ": its loss callback ran while the scope did not report the loss");
        }
        lossCalled = true;
        tickLater(sim.uniform(MS, 50 * MS));
    }

    private void scheduleTick() {
        long now = process.clock.nanoTime();
        long delay = doneAtLocal - now;
        if (style == Style.POLLS_IS_LEADING) {
            delay = Math.min(delay, process.sim.uniform(20 * MS, 400 * MS));
        }
        tickLater(Math.max(0, delay));
    }

    private void tickLater(long localNanos) {
        long current = piece;
        later(() -> {
            if (piece == current && !open.isEmpty()) {
                tick();
            }
        }, localNanos);
    }

    private void tick() {
        Simulation sim = process.sim;
        Open outer = open.get(0);
        if (style == Style.HONOURS_INTERRUPT && (interruptFlag || lossCalled)) {
            boolean byCallback = lossCalled;
            finish(byCallback ? "stops on the loss callback" : "stops on the interrupt");
            sim.stats.count(byCallback ? "work.stopped-on-loss-callback" : "work.stopped-on-interrupt");
            return;
        }
        if (style == Style.POLLS_IS_LEADING && !outer.scope.isLeading()) {
            finish("stops: isLeading() is false");
            sim.stats.count("work.stopped-on-isLeading");
            return;
        }
        if (process.clock.nanoTime() - doneAtLocal >= 0) {
            if (outer.scope.wasLost()) {
                sim.stats.count("work.finished-after-loss");
            }
            finish("is done");
            return;
        }
        // Inner calls come and go while the outer work goes on.
        int k = sim.random.nextInt(10);
        if (k == 0 && open.size() < 3) {
            openNested();
        } else if (k == 1 && open.size() > 1) {
            close(open.remove(open.size() - 1));
        }
        scheduleTick();
    }

    /** Closes every scope, innermost first, and waits a little before the next piece of work. */
    private void finish(String why) {
        Simulation sim = process.sim;
        sim.trace(process, name + " " + why + (interruptFlag ? " (interrupted)" : "") + ": closes " + open.size()
                + " scope(s)" + (open.get(0).scope.wasLost() ? ", told of the loss" : ""));
        for (int i = open.size() - 1; i >= 0; i--) {
            close(open.remove(i));
        }
        interruptFlag = false;
        lossCalled = false;
        later(this::attempt, sim.uniform(10 * MS, 1_000 * MS));
    }

    private static void close(Open o) {
        o.scope.close();
        o.closed = true;
    }

    /**
     * The checker found the thread interrupted right after a step in which one of this worker's scopes that asked for
     * it was told: the interrupt flag of this worker's thread is now set, for its outermost work to see.
     */
    void interrupted() {
        interruptFlag = true;
        if (style == Style.HONOURS_INTERRUPT) {
            tickLater(process.sim.uniform(MS, 50 * MS));
        }
    }

    /** After the heal every worker honours the loss, so that the liveness bounds of the later phases hold. */
    void becomeWellBehaved() {
        if (style == Style.IGNORES_LOSS) {
            style = Style.POLLS_IS_LEADING;
            if (!open.isEmpty()) {
                tickLater(process.sim.uniform(MS, 100 * MS));
            }
        }
    }

    private void later(Runnable task, long localNanos) {
        process.clock.scheduleLocal(task, localNanos);
    }
}
