package dev.hoplock.chaos;

import java.io.IOException;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;

/**
 * The fenced work of one acting session in a {@link ChaosNode}, the same for every {@link Primitive}: repeatedly ask
 * the primitive whether this node still acts ({@code isLeader()}, {@code LockHandle.isHeld()},
 * {@code OwnershipClaim.isValid()}), take the monotonic readings just before and after that check, wait
 * {@code workGap} (the work between deciding and acting, where a SIGSTOP can land), then append a fenced write with the
 * session's token to the session's resource. A {@code STALE} answer prints {@code FENCED} and ends the session; another
 * failure prints {@code SINK_ERROR}.
 *
 * <p>With {@code checkActing = false} (the negative control of a broken slot) the loop never asks the primitive and
 * ignores refusals: it writes until {@code until}, as work that ignores the lock, the claim or the term would.
 * One instance per thread (its {@link ChaosNode.Downstream} is not thread-safe).
 */
final class WorkLoop {

    private final String owner;
    private final ChaosNode.Downstream downstream;
    private final long workGapNanos;
    private final long appendEveryNanos;
    private final boolean checkActing;

    WorkLoop(String owner, ChaosNode.Downstream downstream, long workGapNanos, long appendEveryNanos,
             boolean checkActing) {
        this.owner = owner;
        this.downstream = downstream;
        this.workGapNanos = workGapNanos;
        this.appendEveryNanos = appendEveryNanos;
        this.checkActing = checkActing;
    }

    /**
     * Works on {@code resource} with {@code token} while {@code stillActing} says so (unless this is a broken slot),
     * until a refusal or until {@code untilNanos} on the monotonic clock.
     */
    void run(String resource, long token, BooleanSupplier stillActing, long untilNanos) throws IOException {
        while (System.nanoTime() < untilNanos) {
            long before = System.nanoTime();
            boolean acting = !checkActing || stillActing.getAsBoolean();
            long after = System.nanoTime();
            if (!acting) {
                return;
            }
            LockSupport.parkNanos(workGapNanos);
            String reply = downstream.append(owner, resource, token, before, after);
            if (reply.startsWith("STALE")) {
                ChaosNode.print("FENCED owner=" + owner + " gen=" + token + " nanos=" + System.nanoTime()
                        + " checked=" + before + " reply=" + reply.replace(' ', '_') + " resource=" + resource);
                if (checkActing) {
                    return;
                }
            } else if (reply.startsWith("ERROR")) {
                ChaosNode.print("SINK_ERROR owner=" + owner + " gen=" + token + " nanos=" + System.nanoTime()
                        + " reply=" + reply.replace(' ', '_') + " resource=" + resource);
            }
            LockSupport.parkNanos(appendEveryNanos);
        }
    }
}
