package dev.hoplock.bench.requests;

import org.springframework.core.task.TaskDecorator;
import org.springframework.scheduling.support.ScheduledMethodRunnable;

/**
 * Times every run of every {@code @Scheduled} method on the scheduler thread, around the whole call through the bean
 * reference, so that the time of any advice on the method (the {@code @LeaderOnly} gate, ShedLock's lock and unlock)
 * is inside the measured interval.
 */
final class TimingTaskDecorator implements TaskDecorator {

    private final JobStats stats;

    TimingTaskDecorator(JobStats stats) {
        this.stats = stats;
    }

    @Override
    public Runnable decorate(Runnable runnable) {
        boolean gated = isGated(runnable);
        return () -> {
            JobStats.clearMark();
            long start = System.nanoTime();
            try {
                runnable.run();
            } finally {
                stats.recordRun(gated, System.nanoTime() - start, start);
            }
        };
    }

    /** Whether the run is the gated job ({@code tick()}); wrappers of Spring's scheduler print their delegate. */
    static boolean isGated(Runnable runnable) {
        String description = runnable instanceof ScheduledMethodRunnable method ? method.getMethod().getName()
                : runnable.toString();
        return description.contains("tick");
    }
}
