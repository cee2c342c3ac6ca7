package dev.hoplock.spring.test;

import dev.hoplock.core.time.VirtualTime;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Who moves the {@link VirtualTime} of a test context with {@code @AutoConfigureHoplock(time = VIRTUAL)}, and when.
 *
 * <ul>
 *   <li>While the context starts: a daemon thread runs the tasks due <em>now</em> ({@link VirtualTime#runDue()}),
 *       never moving time, so that the electors' and the group's first rounds (scheduled with no delay) run while the
 *       starter waits for them, at the context's start or at its readiness.</li>
 *   <li>From the test's first use of the clock ({@link #drive}): the test's thread alone; the start-up thread has
 *       stopped. Time moves only when the test advances it (or a control method waits by advancing it).</li>
 *   <li>When the context stops (it closes, or Spring's test context cache pauses it on a switch to another context):
 *       first the stop hooks run (the control's rivals leave), then a daemon thread advances time in steps of 100 ms
 *       so that the electors release their leases and the group leaves, as in real time but fast, until no timer is
 *       left (at least 200 ms and at most 10 s of real time).</li>
 * </ul>
 * Guarantees: one driver at a time ({@link #drive} and the threads share one lock), so the clock is driven from one
 * thread at a time as {@link VirtualTime} requires. Its phase is the hoplock lifecycles' ({@link #DEFAULT_PHASE}),
 * so it stops with them: their close completes on its thread, and Spring's wait for them does not time out.
 */
final class VirtualTimeDriver implements InitializingBean, DisposableBean, SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(VirtualTimeDriver.class);
    private static final String STARTING = "hoplock-virtual-time-start";
    private static final String STOPPING = "hoplock-virtual-time-stop";
    private static final Duration STOPPING_STEP = Duration.ofMillis(100);
    private static final long STOPPING_AT_LEAST = Duration.ofMillis(200).toNanos();
    private static final long STOPPING_AT_MOST = Duration.ofSeconds(10).toNanos();
    private static final long PAUSE_NANOS = Duration.ofMillis(1).toNanos();

    private final VirtualTime time;
    private final ReentrantLock driving = new ReentrantLock();
    private final List<Runnable> stopHooks = new CopyOnWriteArrayList<>();
    private @Nullable Thread pump;
    private volatile boolean pumping;
    private boolean running;

    VirtualTimeDriver(VirtualTime time) {
        this.time = time;
    }

    VirtualTime time() {
        return time;
    }

    /** Runs {@code hook} (as the clock's driver) each time the context stops, before the engines close. */
    void onStop(Runnable hook) {
        stopHooks.add(hook);
    }

    @Override
    public void afterPropertiesSet() {
        startPump(STARTING, false);
    }

    /** Runs {@code work} as the clock's only driver (the start-up thread stops at the first call). */
    <T> T drive(Supplier<T> work) {
        stopPumpIf(STARTING);
        driving.lock();
        try {
            return work.get();
        } finally {
            driving.unlock();
        }
    }

    /** {@link #drive(Supplier)} for work without a result. */
    void drive(Runnable work) {
        drive(() -> {
            work.run();
            return null;
        });
    }

    @Override
    public synchronized void start() {
        if (!running) {
            running = true;
            Thread current = pump;
            if (current == null || !current.getName().equals(STARTING)) {
                startPump(STARTING, false); // a paused context that Spring's test context cache starts again
            }
        }
    }

    @Override
    public void stop() {
        stop(() -> { });
    }

    @Override
    public void stop(Runnable callback) {
        synchronized (this) {
            running = false;
        }
        try {
            for (Runnable hook : stopHooks) {
                try {
                    drive(hook);
                } catch (RuntimeException | AssertionError e) {
                    log.warn("hoplock test support: a stop hook failed", e);
                }
            }
            startPump(STOPPING, true);
        } finally {
            callback.run();
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }

    @Override
    public void destroy() {
        stopPump();
    }

    private synchronized void startPump(String name, boolean advancing) {
        stopPump();
        pumping = true;
        long started = System.nanoTime();
        Thread thread = new Thread(() -> {
            while (pumping) {
                boolean idle;
                driving.lock();
                try {
                    time.advance(advancing ? STOPPING_STEP : Duration.ZERO);
                } catch (RuntimeException e) {
                    log.warn("hoplock test support: a task on the virtual clock failed", e);
                } finally {
                    idle = time.pendingTasks() == 0;
                    driving.unlock();
                }
                long spent = System.nanoTime() - started;
                if (advancing && ((idle && spent >= STOPPING_AT_LEAST) || spent >= STOPPING_AT_MOST)) {
                    return;
                }
                LockSupport.parkNanos(PAUSE_NANOS);
            }
        }, name);
        thread.setDaemon(true);
        pump = thread;
        thread.start();
    }

    private synchronized void stopPumpIf(String name) {
        Thread running = pump;
        if (running != null && running.getName().equals(name)) {
            stopPump();
        }
    }

    private synchronized void stopPump() {
        Thread running = pump;
        pump = null;
        pumping = false;
        if (running != null && running != Thread.currentThread()) {
            try {
                running.join(Duration.ofSeconds(10).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
