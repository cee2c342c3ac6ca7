package dev.hoplock.core.sim;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.EnumSet;

import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * Replays, in every build, the schedules (every fault kind) that found a bug outside the 1,000 schedules CI runs:
 * each broke an invariant or a checker bound before its fix (docs/RELIABILITY.md, "What the extended simulation found"). A schedule
 * is a pure function of its seed, so these stay the same schedules as long as the simulation does not change; when it
 * does, the long runs find such schedules anew.
 */
@Tag("simulation")
class SimulationRegressionSeedsTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {
            20262842L, 20270511L,   // a step-down's release carried out on a later term (two leaders)
            20269212L, 20267779L,   // an abandoned read answer counted as a sighting before an outside delete
            100005146L,             // the un-told-scope bound against a drifting clock
            100088800L,             // a resumed suspend: renewal due by the wall clock
            100050141L,             // the checker: a wake just before the heal is in the suspend's after-effect
            100016271L, 100043492L, 100057628L, 100057997L, 100093465L, 100098373L  // a late create adopted after a delete
    })
    void aScheduleThatOnceFoundABugPasses(long seed) {
        assertThatCode(() -> new Simulation(seed, 400, EnumSet.allOf(Simulation.Fault.class)).run())
                .doesNotThrowAnyException();
    }
}
