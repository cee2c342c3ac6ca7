package dev.hoplock.core.sim;

import dev.hoplock.core.Lease;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;

import java.time.Duration;
import java.util.Optional;

/**
 * The invariants, checked after every task the simulation runs (every timer, every answer delivered, every store
 * change), so that no instant escapes: leadership only begins inside a task, and only ends as time passes.
 *
 * <ol>
 *   <li><b>One leader</b>: no two living processes answer {@code isLeader() == true} at the same virtual instant
 *       (paused processes included; a killed process does no work and is not asked).</li>
 *   <li><b>Self-fencing</b>: a process that answers true is before {@code t0 + ttl - safetyMargin} of the latest of
 *       its writes that the store applied ({@code t0}: its monotonic clock when it sent the write), and the deadline
 *       it will keep ({@code status().timeLeft()}) is not later.</li>
 *   <li><b>Agreement</b>: a process that answers true is the owner, at its lease's generation, of the record the store
 *       holds at that instant.</li>
 *   <li><b>Fencing tokens</b>: every successful write either renews the current term (same owner and generation as
 *       the record it replaced) or starts a term with a generation above every generation written before (a
 *       release keeps the generation; with release-by-delete the count restarts after a delete, as documented).</li>
 * </ol>
 */
final class Checker implements SimStore.Listener {

    private final Simulation sim;
    private final long ttl;
    private final long margin;
    private LeaseRecord current;
    private long maxGeneration;
    long checks;

    Checker(Simulation sim) {
        this.sim = sim;
        this.ttl = sim.config.ttl().toNanos();
        this.margin = sim.config.margin().toNanos();
    }

    @Override
    public void written(SimProcess writer, long t0, byte[] content, Handle previous, Handle handle) {
        LeaseRecord record;
        try {
            record = LeaseRecordCodec.decode(content);
        } catch (MalformedLeaseRecordException e) {
            sim.violation(writer, "an elector wrote a record that does not decode: " + e.getMessage());
            return;
        }
        sim.stats.storeWrites++;
        if (record.owner().equals(writer.owner)) {
            writer.noteApplied(t0);
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
        sim.trace(writer, "STORE now " + handle.value() + " " + describe(record));
    }

    @Override
    public void deleted(SimProcess writer, Handle previous) {
        current = null;
        // Documented: after a release by delete, the next create may restart the generation at 1.
        maxGeneration = 0;
        sim.trace(writer, "STORE deleted " + previous.value());
    }

    /** Runs every invariant at the current instant. */
    void check() {
        checks++;
        SimProcess leader = null;
        for (Machine machine : sim.machines) {
            SimProcess p = machine.process;
            if (p == null || !p.alive() || !p.elector.isLeader()) {
                continue;
            }
            if (leader != null) {
                sim.violation(p, "two leaders at the same instant: " + leader.owner + " and " + p.owner);
            }
            leader = p;
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
            Optional<Lease> lease = p.elector.currentLease();
            if (current == null || !current.owner().equals(p.owner) || lease.isEmpty()
                    || current.generation() != lease.get().generation()) {
                sim.violation(p, "leads at generation " + lease.map(Lease::generation).orElse(-1L)
                        + " but the store holds " + describe(current));
            }
        }
        sim.leaderNow(leader);
    }

    static String describe(LeaseRecord record) {
        if (record == null) {
            return "no record";
        }
        return record.owner().isEmpty() ? "released g=" + record.generation()
                : "owner=" + record.owner() + " g=" + record.generation() + " expires=" + record.expiresAt();
    }
}
