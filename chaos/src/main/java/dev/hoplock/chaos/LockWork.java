package dev.hoplock.chaos;

import dev.hoplock.core.NamedLocks;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.LockEvent;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.s3.S3Backend;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The {@link Primitive#LOCK} work of a {@link ChaosNode}: one {@link NamedLocks} instance, and a thread per lock name
 * (the same names in every node) that takes the lock ({@code tryAcquire}, polled), keeps it alive, runs the
 * {@link WorkLoop} on resource {@code lock/<name>} with the handle's token while {@link LockHandle#isHeld()}, for
 * {@code holdMs}, then releases it and waits two polls (with jitter) before trying again, so that the lock changes
 * holder without any fault too. Prints {@code ACQUIRED}, {@code RENEWED}, {@code RELEASED} and {@code LOST} lines (with
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
        ChaosNode.print("STARTED owner=" + owner + " nanos=" + System.nanoTime() + " pid="
                + ProcessHandle.current().pid());
        List<Thread> workers = new ArrayList<>();
        for (String name : s.names()) {
            WorkLoop work = s.workLoop(Primitive.LOCK.resource(name));
            Thread worker = new Thread(() -> contend(locks, name, work, s), "lock-" + name);
            worker.start();
            workers.add(worker);
        }
        for (Thread worker : workers) {
            worker.join();
        }
        locks.close();
    }

    private static void contend(NamedLocks locks, String name, WorkLoop work, ChaosNode.Settings s) {
        String resource = Primitive.LOCK.resource(name);
        long poll = s.poll().toNanos();
        try {
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
                work.run(resource, handle.token(), handle::isHeld, Math.min(s.endAt(), System.nanoTime() + s.holdNanos()));
                handle.release();
                LockSupport.parkNanos(2 * poll + ThreadLocalRandom.current().nextLong(poll));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("lock " + name + ": the downstream store failed", e);
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
