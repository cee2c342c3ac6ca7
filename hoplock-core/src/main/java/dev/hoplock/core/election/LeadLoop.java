package dev.hoplock.core.election;

/**
 * The loop behind {@link Elector#lead(LeaderTask)}: wait to lead, run the task in a scope, and decide from how it ended
 * whether to run it again, step down or stop (the cases are listed on {@link Elector#lead}).
 *
 * <p>Guarantees: the task runs only inside a scope of a valid term, opened with interrupt-on-loss; the scope is closed
 * before the loop steps down or closes, so the release (rule 7) never waits for this thread's own scope.
 */
final class LeadLoop {

    private LeadLoop() {
    }

    static void run(Elector elector, LeaseLifecycle lifecycle, LeaderTask task) throws Exception {
        elector.start();
        while (true) {
            LeaderScope scope;
            try {
                scope = lifecycle.awaitLeadership();
            } catch (InterruptedException e) {
                elector.close();
                Thread.currentThread().interrupt();
                return;
            }
            if (scope == null) {
                return;
            }
            Exception failure = null;
            try (scope) {
                task.run(scope);
            } catch (Exception e) {
                failure = e;
            }
            if (scope.wasLost()) {
                Thread.interrupted();
                if (elector.isStopped()) {
                    return;
                }
                continue;
            }
            if (Thread.currentThread().isInterrupted()) {
                elector.close();
                return;
            }
            if (failure != null) {
                elector.stepDown();
                throw failure;
            }
            elector.stepDown();
        }
    }
}
