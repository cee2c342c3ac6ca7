package dev.hoplock.core.sim;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * One process's connection to the simulated store. Each request draws its fate from the simulation's seeded random
 * source: it may fail fast (connection refused), vanish (never applied, never answered), be answered with an error
 * burst's 503 / 500-after-apply / 409, take effect after a request latency (up to 2.5 TTL on a slow link) and then
 * lose its answer (outcome unknown), have its answer replaced by the 412 of an SDK retry of a write that did take
 * effect, or be answered after a response latency. Answers are delivered through the process's {@link NodeClock},
 * so a paused process gets them only when it wakes and a dead one never. During a synchronous-answers window, half the
 * requests are instead answered inside the call. A renewal chosen for a step-down fault is answered, refused with a
 * 409 or lost, with the step-down landing before its answer. Every release sent is first shown to the
 * {@link Checker} ({@link Checker#releasing}), which requires the leader work of the process to have stopped.
 */
final class NetBackend implements AsyncBackend {

    private final Simulation sim;
    private final SimProcess process;

    NetBackend(Simulation sim, SimProcess process) {
        this.sim = sim;
        this.process = process;
    }

    @Override
    public CompletionStage<Optional<StoredObject>> read(String key, Duration timeout) {
        long sent = process.clock.nanoTime();
        CompletionStage<Optional<StoredObject>> answer = send("read", false, () -> sim.store.read());
        return answer.thenApply(read -> {
            // The outside-delete precondition counts only sightings (OutsideDeletes).
            if (OutsideDeletes.isSighting(sent, process.clock.nanoTime(), timeout)) {
                LeaseRecord seen = read.map(o -> decode(o.content())).orElse(null);
                process.lastSeenOwner = seen == null ? "" : seen.owner();
            }
            return read;
        });
    }

    @Override
    public CompletionStage<WriteResult> write(String key, Handle expected, byte[] content, Duration timeout) {
        long t0 = process.clock.nanoTime();
        long sharedT0 = sim.time.nanoTime();
        String what = (expected.isNone() ? "create " : "write if " + expected.value() + " ") + Simulation.describe(content);
        LeaseRecord record = decode(content);
        if (record != null && record.isReleased()) {
            sim.checker.releasing(process);
        }
        SimProcess.RenewalFate fate = null;
        if (process.stepDownAtRenewal != null && record != null && !record.isReleased() && !expected.isNone()
                && process.elector.isLeader()) {
            fate = process.stepDownAtRenewal;
            process.stepDownAtRenewal = null;
        }
        CompletionStage<WriteResult> answer = send(what, true, fate,
                () -> sim.store.write(process, t0, sharedT0, expected, content));
        return answer.thenApply(result -> {
            if (result instanceof WriteResult.Written && record != null) {
                process.lastSeenOwner = record.owner();
            }
            return result;
        });
    }

    @Override
    public CompletionStage<DeleteResult> delete(String key, Handle expected, Duration timeout) {
        sim.checker.releasing(process);
        return send("delete if " + expected.value(), true, null, () -> sim.store.delete(process, expected));
    }

    private static LeaseRecord decode(byte[] content) {
        try {
            return LeaseRecordCodec.decode(content);
        } catch (MalformedLeaseRecordException e) {
            return null;
        }
    }

    @Override
    public String describe() {
        return "sim-store";
    }

    private <T> CompletionStage<T> send(String what, boolean mutating, Supplier<Object> apply) {
        return send(what, mutating, null, apply);
    }

    @SuppressWarnings("unchecked")
    private <T> CompletionStage<T> send(String what, boolean mutating, SimProcess.RenewalFate stepDown,
                                        Supplier<Object> apply) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        Machine machine = process.machine;
        sim.stats.requests++;
        sim.trace(process, "send " + what);
        if (stepDown != null) {
            return renewalWithStepDown(what, stepDown, apply, answer);
        }
        switch (machine.link) {
            case REFUSED -> {
                sim.stats.count("net.partition.refused");
                fail(answer, BackendException.Kind.UNREACHABLE, "connection refused", sim.shortLatency());
                return answer;
            }
            case BLACKHOLE -> {
                sim.stats.count("net.partition.blackholed");
                return answer;
            }
            default -> {
            }
        }
        if (sim.outage) {
            if (sim.random.nextBoolean()) {
                sim.stats.count("net.store-down.refused");
                fail(answer, BackendException.Kind.UNREACHABLE, "connection refused (store down)", sim.shortLatency());
            } else {
                sim.stats.count("net.store-down.hung");
            }
            return answer;
        }
        Simulation.Burst burst = sim.burst;
        if (burst != null && sim.random.nextDouble() < burst.rate()) {
            switch (burst.kind()) {
                case THROTTLE_503 -> {
                    sim.stats.count("net.burst.503-slowdown");
                    fail(answer, BackendException.Kind.TRANSIENT, "503 SlowDown (not applied)", sim.latency(machine));
                    return answer;
                }
                case INTERNAL_500_AFTER_APPLY -> {
                    sim.stats.count("net.burst.500-after-apply");
                    long requestLatency = sim.latency(machine);
                    sim.global(() -> {
                        Object result = apply.get();
                        sim.trace(process, "applied " + what + " -> " + result + ", answer replaced by 500");
                        fail(answer, BackendException.Kind.TRANSIENT, "500 InternalError (outcome unknown)", sim.latency(machine));
                    }, requestLatency);
                    return answer;
                }
                case CONFLICT_409 -> {
                    if (mutating) {
                        sim.stats.count("net.burst.409-conflict");
                        Object refusal = what.startsWith("delete") ? DeleteResult.PRECONDITION_FAILED
                                : new WriteResult.Refused(WriteResult.Refusal.PRECONDITION_FAILED);
                        deliver(answer, refusal, sim.latency(machine), "409 ConditionalRequestConflict (not applied)");
                        return answer;
                    }
                }
            }
        }
        if (sim.random.nextDouble() < sim.requestLoss) {
            sim.stats.count("net.request-lost");
            if (sim.random.nextBoolean()) {
                fail(answer, BackendException.Kind.TRANSIENT, "connection reset before the request was sent",
                        sim.latency(machine));
            }
            return answer;
        }
        if (machine.synchronousAnswers && machine.link == Machine.Link.UP && sim.random.nextBoolean()) {
            // Answered inside the call, before any timer of the process can run (a backend that answers at once,
            // or ioExecutor(Runnable::run)).
            sim.stats.count("net.answered-synchronously");
            Object result = apply.get();
            sim.trace(process, "applied " + what + " -> " + result + ", answered synchronously");
            ((CompletableFuture<Object>) answer).complete(result);
            return answer;
        }
        long requestLatency = sim.latency(machine);
        sim.global(() -> {
            Object result = apply.get();
            sim.trace(process, "applied " + what + " -> " + result);
            if (machine.link == Machine.Link.ONE_WAY) {
                sim.stats.count("net.partition.one-way");
                return;
            }
            if (sim.random.nextDouble() < sim.responseLoss) {
                if (mutating && result instanceof WriteResult.Written && sim.random.nextDouble() < 0.4) {
                    // The SDK retries the write after a reset connection; the retry meets our own new version: 412.
                    sim.stats.count("net.sdk-retry-412");
                    sim.global(() -> {
                        Object again = apply.get();
                        sim.trace(process, "SDK retry of " + what + " -> " + again);
                        deliver(answer, again, sim.latency(machine), null);
                    }, sim.latency(machine));
                } else if (sim.random.nextBoolean()) {
                    sim.stats.count("net.response-lost.silent");
                } else {
                    sim.stats.count("net.response-lost.reset");
                    fail(answer, BackendException.Kind.TRANSIENT, "connection reset after the request was sent"
                            + (mutating ? " (outcome unknown)" : ""), sim.latency(machine));
                }
                return;
            }
            deliver(answer, result, sim.latency(machine), null);
        }, requestLatency);
        return answer;
    }

    /**
     * A renewal during which the process steps down (at a random instant before the answer could arrive): the renewal
     * is applied and answered, refused with a 409 that leaves the record ours, or lost.
     */
    private <T> CompletionStage<T> renewalWithStepDown(String what, SimProcess.RenewalFate fate, Supplier<Object> apply,
                                                      CompletableFuture<T> answer) {
        Machine machine = process.machine;
        long requestLatency = sim.latency(machine);
        sim.stats.count("fault.step-down-during-renewal-" + fate.name().toLowerCase().replace('_', '-'));
        process.clock.scheduleShared(() -> {
            process.steppedDownDuringRenewalAt = sim.time.nanoTime();
            process.stepDown(" (renewal in flight, " + fate + ")");
        }, sim.uniform(0, requestLatency));
        switch (fate) {
            case ANSWERED -> sim.global(() -> {
                Object result = apply.get();
                sim.trace(process, "applied " + what + " -> " + result);
                deliver(answer, result, sim.latency(machine), null);
            }, requestLatency);
            case REFUSED_409 -> deliver(answer, new WriteResult.Refused(WriteResult.Refusal.PRECONDITION_FAILED),
                    requestLatency + sim.latency(machine), "409 ConditionalRequestConflict (not applied; the record is"
                            + " still ours)");
            case LOST -> sim.trace(process, "the renewal is lost");
        }
        return answer;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void deliver(CompletableFuture answer, Object value, long latency, String note) {
        if (latency > sim.config.ttl().toNanos()) {
            sim.stats.count("net.answer-later-than-ttl");
        }
        process.clock.scheduleShared(() -> {
            sim.trace(process, "answer " + value + (note == null ? "" : " [" + note + "]"));
            answer.complete(value);
        }, latency);
    }

    private void fail(CompletableFuture<?> answer, BackendException.Kind kind, String message, long latency) {
        process.clock.scheduleShared(() -> {
            sim.trace(process, "answer error: " + message);
            answer.completeExceptionally(new BackendException(kind, "sim-store: " + message));
        }, latency);
    }
}
