package dev.hoplock.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.backend.Backend;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import dev.hoplock.test.FuzzChecker.Property;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * An end-to-end check of a {@link Backend} under the real {@link Elector}, as an abstract JUnit 5 test class: where
 * {@link BackendContractTest} checks the storage operations one by one, this runs several real electors on one key
 * of the backend, with faults, and checks that they never lead at once. Extend it once per backend:
 *
 * <pre>{@code
 * class MyBackendElectorFuzzTest extends ElectorFuzzTest {
 *     @Override
 *     protected Backend backend() {
 *         return new MyBackend(...);
 *     }
 *
 *     @Override
 *     protected Duration ttl() {              // optional: a longer TTL for a slow or remote store
 *         return Duration.ofSeconds(3);
 *     }
 * }
 * }</pre>
 *
 * <h2>What a run does</h2>
 * {@link #electors()} electors (built with {@link Elector#builder(Backend, String)}, TTL {@link #ttl()}, real clocks)
 * compete for one fresh key under {@link #keyPrefix()}, each with a worker thread that does leader work in a
 * {@link dev.hoplock.core.election.LeaderScope} whenever its elector leads. For {@link #chaosDuration()} the run
 * injects faults at random: backend calls held back before they are sent or after they are answered, for up to 1.5 TTL
 * (requests that land late, answers that come after the elector gave up); an elector's scheduler thread blocked for up
 * to 1.2 TTL; workers stalling inside their scope for up to 1.2 TTL, honouring or ignoring the interrupt; nested
 * scopes; step-downs; electors closed and restarted as new incarnations, or frozen until the end of the run (a stopped
 * process: no renewal, no release, the lease expires; it resumes, far too late, just before the end). Then faults stop
 * (the leader is still asked to step down once per TTL) until the run has seen {@link #minAcquisitions()} acquisitions,
 * and every elector is closed.
 *
 * <h2>What it asserts</h2>
 * One run per test class ({@code @BeforeAll}, so {@link #backend()} is called once, before any test of the class;
 * a {@code @TempDir} it needs must be a static field), then one test per property:
 * <ul>
 *   <li>no two electors lead at once: the instants at which each worker provably led (the clock read before a check
 *       of its scope that said it leads) form one interval per term, and these intervals never overlap and follow
 *       each other in the order of their generations, across all electors and incarnations;</li>
 *   <li>per elector, {@code Acquired} and {@code Lost} events alternate with strictly rising generations; no
 *       generation is acquired twice; every term with work was announced by {@code Acquired};</li>
 *   <li>in the store, a write sent after another was answered never carries a lower generation, and carries a higher
 *       one if another elector wrote it (the fencing token rises at every change of holder);</li>
 *   <li>a release is sent only after every scope of the released term was closed, so that the next leader never
 *       starts while this one still works;</li>
 *   <li>the run completed (nothing threw or hung) and was not vacuous: at least {@link #minAcquisitions()}
 *       acquisitions and two terms with work.</li>
 * </ul>
 * Each property is checked only on facts that stay true however slow the machine is (see {@link FuzzChecker}); a
 * slow machine makes fewer acquisitions, never a false failure. The backend must pass {@link BackendContractTest}
 * first: the fuzz run finds what the electors make of it, not which operation is wrong.
 *
 * <h2>Seeds</h2>
 * Every random choice comes from one seed, printed at the start and in the failure message. Set the system property
 * {@value #SEED_PROPERTY} (for example {@code mvn verify -Dhoplock.fuzz.seed=42}) to run that seed's schedule of
 * faults again. The threads run in real time, so a seed reproduces the faults, not the exact interleaving.
 *
 * <p>A run takes about {@link #chaosDuration()} plus a few TTLs, and uses about five threads per elector; it leaves
 * its key behind (released).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ElectorFuzzTest {

    /** The system property that fixes the seed of the run. */
    public static final String SEED_PROPERTY = "hoplock.fuzz.seed";

    private FuzzRun.Report report;

    /** The backend under test. Called once per test class, before the run; may return a shared instance. */
    protected abstract Backend backend() throws Exception;

    /** The first segments of the run's key; override to keep it inside a prefix you own. */
    protected String keyPrefix() {
        return "hoplock-fuzz";
    }

    /** How many electors compete at once. */
    protected int electors() {
        return 4;
    }

    /**
     * The TTL of every elector; renewal, poll, request timeout and safety margin follow the elector's defaults
     * (TTL/3, TTL/15, TTL/3, TTL/10). Raise it for a store whose requests take more than a small part of it.
     */
    protected Duration ttl() {
        return Duration.ofSeconds(1);
    }

    /** How long faults are injected. */
    protected Duration chaosDuration() {
        return Duration.ofSeconds(10);
    }

    /** How many acquisitions the run must see in all, so that it proves something. */
    protected int minAcquisitions() {
        return 3;
    }

    /** How long the quiet phase after the faults may wait for {@link #minAcquisitions()}. */
    protected Duration quietLimit() {
        Duration scaled = ttl().multipliedBy(30);
        return scaled.compareTo(Duration.ofSeconds(30)) > 0 ? scaled : Duration.ofSeconds(30);
    }

    /** The run, once per test class; each test below checks one property of it. */
    @BeforeAll
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    final void runFuzz() throws Exception {
        long seed = seed();
        System.out.println("elector fuzz: seed " + seed + " (replay with -D" + SEED_PROPERTY + "=" + seed + ")");
        Backend store = backend();
        assertThat(store).as("backend()").isNotNull();
        FuzzRun.Settings settings = new FuzzRun.Settings(keyPrefix() + "/" + UUID.randomUUID() + "/lease",
                electors(), ttl(), chaosDuration(), quietLimit(), minAcquisitions(), seed);
        report = new FuzzRun(settings, store).run();
        System.out.println(report.summary());
    }

    /** Nothing threw or hung, and the run saw enough acquisitions and handovers to prove something. */
    @Test
    void runCompletedAndWasNotVacuous() {
        assertHolds(Property.RUN_COMPLETED);
    }

    /** The instants of work of different terms never overlap and follow the order of the generations. */
    @Test
    void oneLeaderAtATime() {
        assertHolds(Property.ONE_LEADER_AT_A_TIME);
    }

    /** Acquired and Lost alternate per elector with rising generations; work happens only in announced terms. */
    @Test
    void eventsAlternateWithRisingGenerations() {
        assertHolds(Property.EVENTS);
    }

    /** In the store, generations never fall and rise at every change of writer. */
    @Test
    void fencingTokensRiseAtEveryChangeOfWriter() {
        assertHolds(Property.FENCING_TOKENS);
    }

    /** A release is sent only after every scope of the released term was closed. */
    @Test
    void releaseIsSentOnlyAfterLeaderWorkStopped() {
        assertHolds(Property.RELEASE_AFTER_WORK);
    }

    private void assertHolds(Property property) {
        assertThat(report).as("the fuzz run did not finish (see the error of runFuzz)").isNotNull();
        assertThat(report.violationsOf(property))
                .as("%s in the elector fuzz run with seed %d (replay with -D%s=%d); %s", property, report.seed(),
                        SEED_PROPERTY, report.seed(), report.summary())
                .isEmpty();
    }

    private static long seed() {
        String fixed = System.getProperty(SEED_PROPERTY);
        if (fixed == null || fixed.isBlank()) {
            return ThreadLocalRandom.current().nextLong();
        }
        try {
            return Long.parseLong(fixed.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("system property " + SEED_PROPERTY + " must be a decimal long (the seed"
                    + " printed by a failed run), was '" + fixed + "'", e);
        }
    }
}
