package dev.hoplock.core.sim;

import dev.hoplock.core.Lease;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The invariants, checked after every task the simulation runs (every timer, every answer delivered, every store
 * change, every step of leader work), so that no instant escapes: leadership only begins inside a task, and only ends
 * as time passes.
 *
 * <ol>
 *   <li><b>One leader</b>: no two living processes answer {@code isLeader() == true} at the same virtual instant
 *       (paused and suspended processes included; a killed process does no work and is not asked).</li>
 *   <li><b>Self-fencing</b>: a process that answers true is before {@code t0 + ttl - safetyMargin} of the latest of
 *       its writes that the store applied ({@code t0}: its monotonic clock when it sent the write), and the deadline
 *       it will keep ({@code status().timeLeft()}) is not later. In true (shared) time, it is less than a TTL after
 *       it sent that write, whatever its monotonic clock says (a suspend stops that clock).</li>
 *   <li><b>Agreement</b>: a process that answers true is the owner, at its lease's generation, of the record the store
 *       holds at that instant, or of the record deleted from outside since it last wrote (whether anyone else leads
 *       meanwhile is for the one-leader check to say).</li>
 *   <li><b>Fencing tokens</b>: every successful write either renews the current term (same owner and generation as
 *       the record it replaced) or starts a term with a generation above every generation written before (a
 *       release keeps the generation; after a delete the count restarts, as documented).</li>
 *   <li><b>Leader work</b> (the scopes of the {@link Worker}s), judged only for processes whose threads run (not
 *       paused, not suspended, not in the middle of running the tasks held while they were):
 *     <ul>
 *       <li><b>no overlap</b>: no two processes have an open scope that was not told of the end of its term
 *           ({@code wasLost()} false) while its term holds ({@code isLeading()} true);</li>
 *       <li><b>told in time</b>: a scope whose term has ended ({@code isLeading()} false) is told
 *           ({@code wasLost()}) within one poll interval of its elector (at once when the monotonic deadline ended
 *           it; the fence looks at least once per poll for an end by the wall clock), and before its process begins
 *           another term;</li>
 *       <li><b>interrupts</b>: when a scope that asked for an interrupt is told, its thread is interrupted in that
 *           same step (so the flag is there for the outermost work to see, nested scopes or not), and no thread is
 *           interrupted by anything else (a closed scope never interrupts);</li>
 *       <li><b>no release under running work</b>: a process sends a release (an expired record, or a delete) only
 *           when none of its scopes is open, of whatever term.</li>
 *     </ul></li>
 * </ol>
 */
final class Checker implements SimStore.Listener {

    private final Simulation sim;
    private LeaseRecord current;
    /** The record deleted from outside, while the store has none since. */
    private LeaseRecord deletedFromOutside;
    private long maxGeneration;
    long checks;

    Checker(Simulation sim) {
        this.sim = sim;
    }

    @Override
    public void written(SimProcess writer, long t0, long sharedT0, byte[] content, Handle previous, Handle handle) {
        LeaseRecord record;
        try {
            record = LeaseRecordCodec.decode(content);
        } catch (MalformedLeaseRecordException e) {
            sim.violation(writer, "an elector wrote a record that does not decode: " + e.getMessage());
            return;
        }
        sim.stats.storeWrites++;
        if (record.owner().equals(writer.owner)) {
            writer.noteApplied(t0, sharedT0);
        }
        if (record.owner().isEmpty()) {
            if (current == null || record.generation() != current.generation()) {
                sim.violation(writer, "a release changed the generation from "
                        + (current == null ? "none" : current.generation()) + " to " + record.generation());
            }
        } else {
            boolean renewal = current != null && current.owner().equals(record.owner())
                    && current.generation() == record.generation();
            if (!renewal && record.generation() <= maxGeneration) {
                sim.violation(writer, "generation " + record.generation() + " does not increase at a change of holder"
                        + " (highest written so far: " + maxGeneration + ", replaced record: " + describe(current) + ")");
            }
            if (!renewal) {
                sim.stats.holderChanges++;
            }
        }
        maxGeneration = Math.max(maxGeneration, record.generation());
        current = record;
        if (deletedFromOutside != null && deletedFromOutside.owner().equals(writer.owner)) {
            // Its holder wrote again: from now on it leads on what the store holds, or not at all. (A write of
            // another process, such as a create that was in flight, does not end the deleted holder's term.)
            deletedFromOutside = null;
        }
        sim.trace(writer, "STORE now " + handle.value() + " " + describe(record));
    }

    @Override
    public void deleted(SimProcess writer, Handle previous) {
        deletedFromOutside = writer == null ? current : null;
        current = null;
        // Documented: after a delete (a release by delete, or from outside) the next create may restart at 1.
        maxGeneration = 0;
        sim.trace(writer, "STORE deleted " + previous.value() + (writer == null ? " FROM OUTSIDE" : ""));
    }

    /** The owner of the record the store holds, or null when it holds none or a released one. */
    String holder() {
        return current == null || current.owner().isEmpty() ? null : current.owner();
    }

    /** {@code p} is sending a release (an expired record or a delete): none of its leader work may still run. */
    void releasing(SimProcess p) {
        List<Worker.Open> open = p.openScopes();
        if (!open.isEmpty()) {
            sim.violation(p, "releases the lease while " + open.size() + " scope(s) of its leader work are still open,"
                    + " so the next leader can start while this one still works: " + open);
        }
    }

    /** Runs every invariant at the current instant. */
    void check() {
        checks++;
        attributeInterrupts();
        SimProcess leader = null;
        SimProcess working = null;
        long sharedNow = sim.time.nanoTime();
        for (Machine machine : sim.machines) {
            SimProcess p = machine.process;
            if (p == null || !p.alive()) {
                continue;
            }
            working = checkWork(p, working, sharedNow);
            if (!p.elector.isLeader()) {
                continue;
            }
            if (leader != null) {
                sim.violation(p, "two leaders at the same instant: " + leader.owner + " and " + p.owner);
            }
            leader = p;
            checkLeader(p, sharedNow);
        }
        sim.leaderNow(leader);
    }

    private void checkLeader(SimProcess p, long sharedNow) {
        long ttl = p.machine.timing.ttl().toNanos();
        long margin = p.machine.timing.margin().toNanos();
        long now = p.clock.nanoTime();
        if (!p.hasApplied) {
            sim.violation(p, "leads although the store never applied a write of it");
        }
        long bound = p.lastAppliedT0 + ttl - margin;
        if (now - bound >= 0) {
            sim.violation(p, "leads " + Duration.ofNanos(now - bound) + " after t0 + ttl - margin of its last"
                    + " applied write");
        }
        long keeps = now + p.elector.status().timeLeft().toNanos();
        if (keeps - bound > 0) {
            sim.violation(p, "its self-fencing deadline lies " + Duration.ofNanos(keeps - bound)
                    + " after t0 + ttl - margin of its last applied write");
        }
        long trueAge = sharedNow - p.lastAppliedSharedT0;
        if (trueAge >= ttl) {
            sim.violation(p, "leads " + Duration.ofNanos(trueAge) + " of true time after it sent its last applied"
                    + " write, more than the TTL (its monotonic clock says " + Duration.ofNanos(now - p.lastAppliedT0)
                    + ": it was suspended)");
        }
        Optional<Lease> lease = p.elector.currentLease();
        if (!holds(current, p, lease) && !holds(deletedFromOutside, p, lease)) {
            sim.violation(p, "leads at generation " + lease.map(Lease::generation).orElse(-1L)
                    + " but the store holds " + describe(current));
        }
    }

    private static boolean holds(LeaseRecord record, SimProcess p, Optional<Lease> lease) {
        return record != null && record.owner().equals(p.owner) && lease.isPresent()
                && record.generation() == lease.get().generation();
    }

    /**
     * The leader-work invariants for {@code p}; returns the process found with un-told open work ({@code working} or
     * {@code p}).
     */
    private SimProcess checkWork(SimProcess p, SimProcess working, long sharedNow) {
        List<Worker.Open> open = p.openScopes();
        if (open.isEmpty()) {
            return working;
        }
        boolean judged = p.clock.running() && !p.clock.waking();
        // One poll of the process's own (drifting) clock, in shared time: the fence looks once per local poll.
        long poll = (long) Math.ceil(p.machine.timing.poll().toNanos() / p.machine.rate);
        Worker.Open untold = null;
        for (Worker.Open o : open) {
            if (o.scope.wasLost()) {
                continue;
            }
            if (!judged || o.scope.isLeading()) {
                o.untoldSince = null;
                untold = o;
                continue;
            }
            // Its term ended (by the monotonic deadline the fence tells at once; by the wall clock, after a forward
            // step or a suspend, the fence sees it within a poll). Until then it does not count as overlapping work.
            if (o.untoldSince == null) {
                o.untoldSince = sharedNow;
            } else if (sharedNow - o.untoldSince > poll) {
                sim.violation(p, o + " was not told that its term ended, " + Duration.ofNanos(sharedNow - o.untoldSince)
                        + " after it ended (isLeading() false, wasLost() false; the bound is one poll)");
            }
        }
        if (untold == null || !judged) {
            return working;
        }
        if (working != null) {
            sim.violation(p, "leader work overlaps: " + working.owner + " and " + p.owner + " both have an open scope"
                    + " that was not told of a loss (" + untold + ")");
        }
        return p;
    }

    /**
     * Takes the thread's interrupt flag off right after a step and attributes it to the scopes told in that step.
     */
    private void attributeInterrupts() {
        boolean interrupted = Thread.interrupted();
        List<Worker.Open> toldNow = new ArrayList<>();
        for (Machine machine : sim.machines) {
            SimProcess p = machine.process;
            if (p == null || !p.alive()) {
                continue;
            }
            for (Worker.Open o : p.openScopes()) {
                if (!o.toldSeen && o.scope.wasLost()) {
                    o.toldSeen = true;
                    toldNow.add(o);
                }
            }
        }
        boolean asked = false;
        for (Worker.Open o : toldNow) {
            sim.stats.count("work.scopes-told");
            if (o.callback && o.callbackCalls != 1) {
                sim.violation(o.worker.process, o + " was told of the loss but its loss callback ran "
                        + o.callbackCalls + " times in that step (once expected)");
            }
            if (o.interruptOnLoss) {
                asked = true;
                if (!interrupted) {
                    sim.violation(o.worker.process, o + " was told of the loss but its thread was not interrupted:"
                            + " the outermost work never sees the interrupt");
                }
            }
        }
        if (interrupted && !asked) {
            sim.violation(null, "a thread was interrupted although no open scope that asked for it was told"
                    + " (a closed scope, or one that did not ask, interrupted it)");
        }
        if (interrupted) {
            sim.stats.count("work.interrupts");
            for (Worker.Open o : toldNow) {
                if (o.interruptOnLoss) {
                    o.worker.interrupted();
                }
            }
        }
    }

    static String describe(LeaseRecord record) {
        if (record == null) {
            return "no record";
        }
        return record.owner().isEmpty() ? "released g=" + record.generation()
                : "owner=" + record.owner() + " g=" + record.generation() + " expires=" + record.expiresAt();
    }
}
