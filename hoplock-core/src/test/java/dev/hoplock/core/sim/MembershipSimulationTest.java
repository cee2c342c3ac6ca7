package dev.hoplock.core.sim;

import dev.hoplock.core.ownership.OwnershipSeams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs {@link MembershipSimulation} schedules: {@code hoplock.membership.baseSchedules} without outside faults (250 by
 * default) and {@code hoplock.sim.schedules} with them (1,000), 10,000 of each in the {@code simulation-long} profile,
 * from seed {@code hoplock.membership.baseSeed} (default 20261201), and fails with the
 * seed and the trace of the first that breaks an invariant. {@code hoplock.membership.seed} replays one seed.
 * The planted-defect rows prove that the checker catches a broken rule.
 *
 * <p>The outside faults of issue 19 ({@link MembershipSimulation.Fault}) run in
 * {@link #noScheduleHasTwoActingOwnersUnderOutsideFaults} (all of them, or those of {@code hoplock.membership.faults},
 * over {@code hoplock.sim.schedules} schedules) and one family at a time in {@link #oneOutsideFaultFamily}
 * ({@code hoplock.membership.familySchedules}, default 50, each). The build's counts are chosen for the suite's
 * time on 2 cores (this class took 224 s in {@code bash .ci/run} on a loaded machine); the schedules with every outside
 * fault are the ones issue 19 asks 1,000 of. {@code hoplock.membership.seed} with
 * {@code hoplock.membership.faults} replays one seed of them. Both fail on the code of issue 19 (defects 1, 2 and 3 of
 * the ownership engine). A key's token order restarts across a re-creation of the registry by the store's history
 * (rules M8 and M9, as the elector's generations after an outside delete; the fence keeps it safe);
 * {@code -Dhoplock.membership.tokensRestartAtRecreation=false} demands rising tokens across re-creations too.
 */
@Tag("simulation")
class MembershipSimulationTest {

    private static final long BASE_SEED = Long.getLong("hoplock.membership.baseSeed", 20261201L);
    private static final Set<MembershipSimulation.Fault> FAULTS =
            MembershipSimulation.Fault.parse(System.getProperty("hoplock.membership.faults"));

    @Test
    void noScheduleHasTwoActingOwnersOrAFallingToken() throws Exception {
        Long single = Long.getLong("hoplock.membership.seed");
        int schedules = single != null ? 1 : Integer.getInteger("hoplock.membership.baseSchedules", 250);
        List<MembershipSimulation.Result> results = runMany(single != null ? single : BASE_SEED, schedules, null,
                EnumSet.noneOf(MembershipSimulation.Fault.class));
        String summary = MembershipSimulation.summary(results);
        System.out.println("membership simulation: " + summary);
        for (MembershipSimulation.Result result : results) {
            if (result.violation() != null) {
                MembershipSimulation replay = new MembershipSimulation(result.seed(), null);
                replay.run();
                System.out.println(replay.trace());
            }
            assertThat(result.violation()).as("seed %d", result.seed()).isNull();
        }
        assertThat(results.stream().mapToLong(MembershipSimulation.Result::ownerChanges).sum())
                .as("the schedules move keys between owners").isPositive();
    }

    /**
     * Issue 19: the base schedules plus outside deletes of the registry and of member leases (fair: {@link
     * OutsideDeletes}), member ids reused by new processes (also at the same lease generation), partitions from one
     * record but not another, loaded machines (answers seconds late and out of order), store re-creation and members
     * that never saw the registry starting right after its delete. Rules M1 to M9 must hold through all of them: no
     * two acting owners of a key at any instant, tokens rising at every change of owner and never falling.
     */
    @Test
    void noScheduleHasTwoActingOwnersUnderOutsideFaults() throws Exception {
        Long single = Long.getLong("hoplock.membership.seed");
        int schedules = single != null ? 1 : Integer.getInteger("hoplock.sim.schedules", 1000);
        assertNoViolation(runMany(single != null ? single : BASE_SEED, schedules, null, FAULTS), FAULTS);
    }

    /** One row per fault family of issue 19, alone on top of the base schedule, to attribute a violation to it. */
    @ParameterizedTest
    @EnumSource(MembershipSimulation.Fault.class)
    void oneOutsideFaultFamily(MembershipSimulation.Fault fault) throws Exception {
        int schedules = Integer.getInteger("hoplock.membership.familySchedules", 50);
        Set<MembershipSimulation.Fault> faults = EnumSet.of(fault);
        assertNoViolation(runMany(BASE_SEED, schedules, null, faults), faults);
    }

    private static void assertNoViolation(List<MembershipSimulation.Result> results,
                                          Set<MembershipSimulation.Fault> faults) {
        String summary = MembershipSimulation.summary(results);
        System.out.println("membership simulation with " + faults + ": " + summary);
        List<MembershipSimulation.Result> failed = results.stream().filter(r -> r.violation() != null).toList();
        failed.forEach(r -> System.out.println("  " + r.violation()));
        if (!failed.isEmpty()) {
            MembershipSimulation replay = new MembershipSimulation(failed.get(0).seed(), null, faults);
            replay.run();
            assertThat(failed.get(0).violation()).as("%d of %d schedules with %s failed; the first one's trace:%n%s"
                    + "%nReplay: -Dtest=MembershipSimulationTest#noScheduleHasTwoActingOwnersUnderOutsideFaults"
                    + " -Dhoplock.membership.seed=%d -Dhoplock.membership.faults=%s", failed.size(), results.size(),
                    faults, replay.trace(), failed.get(0).seed(), MembershipSimulation.Fault.spec(faults)).isNull();
        }
        assertThat(results.stream().mapToLong(MembershipSimulation.Result::ownerChanges).sum())
                .as("the schedules move keys between owners").isPositive();
    }

    /**
     * Seeds of the 10,000-schedule run that found a defect, replayed in every build. 20263051: a watcher paused past a
     * TTL processed a read answered before its pause as a fresh sighting and removed a live member (fixed: the
     * unchanged-for-TTL observation is measured to when the later read was sent).
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(longs = {20263051L})
    void regressionSeeds(long seed) {
        MembershipSimulation sim = new MembershipSimulation(seed, null);
        MembershipSimulation.Result result = sim.run();
        assertThat(result.violation()).as("seed %d; trace:%n%s", seed, sim.trace()).isNull();
    }

    /**
     * Each planted defect breaks one rule; the checker must catch it within 300 schedules. The run stops at the first
     * schedule that catches it, to keep the build short ({@code -Dhoplock.membership.countCatches=true} runs all 300 and
     * prints how many caught it, the rate docs/RELIABILITY.md gives). The defects of issue 19 need its outside faults
     * and are rows of {@link #theCheckerCatchesAPlantedDefectUnderOutsideFaults}.
     */
    @ParameterizedTest
    @EnumSource(value = OwnershipSeams.PlantedDefect.class, names = {"SETTLE_AT_ONCE", "NO_VIEW_DEADLINE",
            "HASTY_REMOVAL"})
    void theCheckerCatchesAPlantedDefect(OwnershipSeams.PlantedDefect defect) throws Exception {
        assertCaughtWithin300(defect, EnumSet.noneOf(MembershipSimulation.Fault.class));
    }

    /**
     * The planted defects of issue 19, each with the fault family that provokes it: the checker must catch each within
     * 300 schedules (stopping at the first catch, as above). YOUNG_REGISTRY_SETTLED_BY_ACKS (M3,
     * defect 1): a fresh creator, alone in the registry it created, settles it by its own acknowledgement and acts at
     * once, while the old members still act under the deleted registry's view. SAME_EPOCH_IS_SAME_VIEW (M9,
     * defect 2): a registry re-created by a fresh creator reaches the epoch number of an old member's view with other
     * members and is taken for it. GENERATION_ONLY_REGISTRATION (M1, defect 3): a member id reused by a new process
     * that re-creates the deleted member lease at the same generation, so the old process takes the new one's entry
     * for its own.
     *
     * <p>Not a row: TOKEN_LOOKS_BACK_FOUR (M8, defect 7) raises the token of a key that never moved after more than
     * four membership changes. This checker judges tokens at a change of acting owner (must rise) and for one process
     * (must not fall); a token that rises for one process is not a violation it can judge from samples, because the
     * same process legitimately gets a higher token when its ownership was interrupted between two samples or its
     * chain broke (a new lease generation, a re-created registry). {@code ViewRulesTest} shows that defect
     * deterministically.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = ';', value = {
            "YOUNG_REGISTRY_SETTLED_BY_ACKS; fresh-creator",
            "SAME_EPOCH_IS_SAME_VIEW; fresh-creator",
            "GENERATION_ONLY_REGISTRATION; member-id-reuse"})
    void theCheckerCatchesAPlantedDefectUnderOutsideFaults(OwnershipSeams.PlantedDefect defect, String faultSpec)
            throws Exception {
        assertCaughtWithin300(defect, MembershipSimulation.Fault.parse(faultSpec));
    }

    private static void assertCaughtWithin300(OwnershipSeams.PlantedDefect defect,
                                              Set<MembershipSimulation.Fault> faults) throws Exception {
        boolean countAll = Boolean.getBoolean("hoplock.membership.countCatches");
        int threads = Integer.getInteger("hoplock.sim.threads", Runtime.getRuntime().availableProcessors());
        int run = 0;
        int caughtCount = 0;
        MembershipSimulation.Result first = null;
        while ((first == null || countAll) && run < 300) {
            int batch = Math.min(threads, 300 - run);
            for (MembershipSimulation.Result r : runMany(BASE_SEED + run, batch, defect, faults)) {
                if (r.violation() != null) {
                    caughtCount++;
                    if (first == null) {
                        first = r;
                    }
                }
            }
            run += batch;
        }
        System.out.println("planted " + defect + " with " + faults + ": " + (first == null ? "not caught"
                : "caught in " + caughtCount + " of " + run + " schedules run, first at seed " + first.seed() + ": "
                + first.violation()));
        assertThat(first).as("a schedule with %s in which the checker caught %s (of %d)", faults, defect, run)
                .isNotNull();
    }

    private static List<MembershipSimulation.Result> runMany(long base, int schedules,
                                                             OwnershipSeams.PlantedDefect defect,
                                                             Set<MembershipSimulation.Fault> faults) throws Exception {
        int threads = Integer.getInteger("hoplock.sim.threads", Runtime.getRuntime().availableProcessors());
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<MembershipSimulation.Result>> futures = new ArrayList<>();
        try {
            for (int i = 0; i < schedules; i++) {
                long seed = base + i;
                futures.add(pool.submit(() -> new MembershipSimulation(seed, defect, faults).run()));
            }
            List<MembershipSimulation.Result> results = new ArrayList<>();
            for (Future<MembershipSimulation.Result> f : futures) {
                results.add(f.get());
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
