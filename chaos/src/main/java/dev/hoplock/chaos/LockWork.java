package dev.hoplock.chaos;

import dev.hoplock.core.lock.NamedLocks;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockEvent;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.s3.S3Backend;

import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The {@link Primitive#LOCK} work of a {@link ChaosNode}: one {@link NamedLocks} instance, and a thread per lock name
 * (the same names in every node) that takes the lock ({@code tryAcquire}, polled), keeps it alive, runs the
 * {@link WorkLoop} on resource {@code lock/<name>} with the handle's token while {@link LockHandle#isHeld()}, for
 * {@code holdMs}, then releases it and waits two polls (with jitter) before trying again, so that the lock changes
 * holder without any fault too. A broken slot ({@code checkLeader=false}, the negative control) keeps working under its
 * first acquisition of each name until the node ends, whether or not it still holds the lock. Prints {@code ACQUIRED}, {@code RENEWED}, {@code RELEASED} and {@code LOST} lines (with
 * {@code gen=} the token and {@code resource=}) from the instance's lock events.
 */
final class LockWork {

    private LockWork() {
    }

    static void run(S3Backend backend, ChaosNode.Settings s) throws Exception {
        String owner = s.owner();
        NamedLocks locks = NamedLocks.builder(backend).owner(owner).pollInterval(s.poll())
                .requestTimeout(s.ttl().dividedBy(3)).build();
        locks.addListener(event -> {
            if (!(event instanceof LockEvent.Refused)) { // refused attempts: every poll of every waiting name
                ChaosNode.print(describe(owner, event));
            }
        });
        s.startedThenPerName((name, resource, work) -> contend(locks, name, resource, work, s));
        locks.close();
    }

    private static void contend(NamedLocks locks, String name, String resource, WorkLoop work,
                                ChaosNode.Settings s) throws IOException {
        long poll = s.poll().toNanos();
        while (System.nanoTime() < s.endAt()) {
            AcquireResult result = locks.tryAcquire(name, s.ttl());
            if (!(result instanceof AcquireResult.Acquired acquired)) {
                LockSupport.parkNanos(poll);
                continue;
            }
            LockHandle handle = acquired.handle();
            try {
                handle.keepAlive(s.ttl().dividedBy(2));
            } catch (IllegalStateException lostAlready) {
                continue;
            }
            work.run(resource, handle.token(), handle::isHeld, s.sessionEnd());
            handle.release();
            LockSupport.parkNanos(2 * poll + ThreadLocalRandom.current().nextLong(poll));
        }
    }

    private static String describe(String owner, LockEvent event) {
        String base = " owner=" + owner + " nanos=" + System.nanoTime() + " gen=" + event.token() + " resource="
                + Primitive.LOCK.resource(event.name());
        if (event instanceof LockEvent.Acquired) {
            return "ACQUIRED" + base;
        }
        if (event instanceof LockEvent.Extended) {
            return "RENEWED" + base;
        }
        if (event instanceof LockEvent.Released e) {
            return "RELEASED" + base + " outcome=" + e.outcome() + " heldMs=" + e.heldFor().toMillis();
        }
        if (event instanceof LockEvent.Lost e) {
            return "LOST" + base + " cause=" + e.cause() + " detail=" + e.detail().replace(' ', '_').replace('\n', '_');
        }
        return "REFUSED" + base;
    }
}
