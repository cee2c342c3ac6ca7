package dev.hoplock.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.Lease;
import dev.hoplock.core.election.LossCause;
import dev.hoplock.test.FuzzJournal.Observations;
import dev.hoplock.test.FuzzJournal.OpenScope;
import dev.hoplock.test.FuzzJournal.StoreWrite;
import dev.hoplock.test.FuzzJournal.TermWork;
import dev.hoplock.test.FuzzJournal.Trace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each rule of {@link FuzzChecker} on planted histories: a clean one passes, each planted violation is named. */
class FuzzCheckerTest {

    private static final String KEY = "k";

    @Test
    void cleanHistoryPasses() {
        assertThat(FuzzChecker.check(clean(), 2)).hasSize(FuzzChecker.Property.values().length)
                .allSatisfy((property, violations) -> assertThat(violations).as(property.name()).isEmpty());
    }

    @Test
    void overlappingTermsAreReported() {
        List<TermWork> work = List.of(new TermWork("a", 1, 100, 500, 5), new TermWork("b", 2, 499, 900, 5));

        assertThat(FuzzChecker.noOverlap(work)).singleElement().asString()
                .contains("two leaders at once", "b worked at generation 2", "a last worked at generation 1");
    }

    @Test
    void touchingTermsAreReported() {
        List<TermWork> work = List.of(new TermWork("a", 1, 100, 500, 5), new TermWork("b", 2, 500, 900, 5));

        assertThat(FuzzChecker.noOverlap(work)).singleElement().asString().contains("two leaders at once");
    }

    @Test
    void termsOutOfGenerationOrderAreReported() {
        // generation 3 worked before generation 2: sorted by generation, 2's last instant follows 3's first
        List<TermWork> work = List.of(new TermWork("a", 2, 600, 900, 5), new TermWork("b", 3, 100, 500, 5));

        assertThat(FuzzChecker.noOverlap(work)).singleElement().asString().contains("two leaders at once");
    }

    @Test
    void generationLedByTwoElectorsIsReported() {
        List<TermWork> work = List.of(new TermWork("a", 1, 100, 200, 5), new TermWork("b", 1, 300, 400, 5));

        assertThat(FuzzChecker.oneLeaderPerGeneration(work)).singleElement().asString()
                .contains("generation 1 was led by two electors: a and b");
        assertThat(FuzzChecker.noOverlap(work)).as("apart in time").isEmpty();
    }

    @Test
    void acquiredTwiceWithoutLostIsReported() {
        Trace trace = new Trace("a", List.of(acquired(1), acquired(2), lost(2)), true);

        assertThat(FuzzChecker.events(List.of(trace))).singleElement().asString()
                .contains("a acquired generation 2 while still in its term at generation 1");
    }

    @Test
    void lostOfAnotherGenerationIsReported() {
        Trace trace = new Trace("a", List.of(acquired(1), lost(2)), true);

        assertThat(FuzzChecker.events(List.of(trace))).singleElement().asString()
                .contains("a lost generation 2 while its term was at generation 1");
    }

    @Test
    void lostWithoutAcquiredIsReported() {
        Trace trace = new Trace("a", List.of(lost(1)), true);

        assertThat(FuzzChecker.events(List.of(trace))).singleElement().asString()
                .contains("a lost generation 1 without having acquired it");
    }

    @Test
    void fallingGenerationOfOneElectorIsReported() {
        Trace trace = new Trace("a", List.of(acquired(3), lost(3), acquired(2), lost(2)), true);

        assertThat(FuzzChecker.events(List.of(trace))).singleElement().asString()
                .contains("a acquired generation 2 after generation 3");
    }

    @Test
    void generationAcquiredByTwoElectorsIsReported() {
        Trace a = new Trace("a", List.of(acquired(1), lost(1)), true);
        Trace b = new Trace("b", List.of(acquired(1), lost(1)), true);

        assertThat(FuzzChecker.events(List.of(a, b))).singleElement().asString()
                .contains("generation 1 was acquired twice: by a and by b");
    }

    @Test
    void closingInsideATermOrWithoutCompletionIsReported() {
        Trace open = new Trace("a", List.of(acquired(1)), true);
        Trace unfinished = new Trace("b", List.of(), false);

        assertThat(FuzzChecker.events(List.of(open, unfinished))).containsExactly(
                "a closed without a Lost event for its term at generation 1",
                "the event stream of b did not complete after close");
    }

    @Test
    void workWithoutAcquiredIsReported() {
        List<TermWork> work = List.of(new TermWork("a", 1, 100, 200, 5), new TermWork("b", 2, 300, 400, 5));
        List<Trace> traces = List.of(new Trace("a", List.of(acquired(1), lost(1)), true),
                new Trace("b", List.of(acquired(3), lost(3)), true));

        assertThat(FuzzChecker.workHasAcquired(work, traces)).singleElement().asString()
                .contains("b worked at generation 2 without an Acquired event for it");
    }

    @Test
    void storeGenerationsRiseAtChangeOfWriterAndNeverFall() {
        List<StoreWrite> fine = List.of(
                new StoreWrite("a", 1, false, 0, 10),
                new StoreWrite("a", 1, false, 20, 30),    // a renewal keeps the generation
                new StoreWrite("b", 2, false, 40, 50),    // a takeover raises it
                new StoreWrite("c", 2, false, 45, 60));   // overlaps b's write: their order is unknown
        assertThat(FuzzChecker.storeGenerations(fine)).isEmpty();

        assertThat(FuzzChecker.storeGenerations(
                List.of(new StoreWrite("a", 2, false, 0, 10), new StoreWrite("a", 1, false, 20, 30))))
                .singleElement().asString().contains("a wrote generation 1", "must never go down");
        assertThat(FuzzChecker.storeGenerations(
                List.of(new StoreWrite("a", 1, false, 0, 10), new StoreWrite("b", 1, false, 20, 30))))
                .singleElement().asString().contains("b wrote generation 1", "must rise at every change of writer");
    }

    @Test
    void releaseWhileAScopeIsOpenIsReported() {
        List<StoreWrite> writes = List.of(new StoreWrite("a", 3, true, 500, 520));

        assertThat(FuzzChecker.releaseAfterWork(writes, List.of(new OpenScope("a", 3, 499)))).isEmpty();
        assertThat(FuzzChecker.releaseAfterWork(writes, List.of(new OpenScope("b", 3, 600)))).as("other elector")
                .isEmpty();
        assertThat(FuzzChecker.releaseAfterWork(writes, List.of(new OpenScope("a", 4, 600)))).as("later term")
                .isEmpty();
        assertThat(FuzzChecker.releaseAfterWork(writes, List.of(new OpenScope("a", 3, 500)))).singleElement()
                .asString().contains("a released generation 3 while its scope at generation 3 was still open");
        assertThat(FuzzChecker.releaseAfterWork(writes, List.of(new OpenScope("a", 2, 700)))).as("earlier term")
                .singleElement().asString().contains("its scope at generation 2 was still open");
        assertThat(FuzzChecker.releaseAfterWork(List.of(new StoreWrite("a", 3, false, 500, 520)),
                List.of(new OpenScope("a", 3, 600)))).as("a renewal, not a release").isEmpty();
    }

    @Test
    void vacuousRunIsReported() {
        Observations oneTerm = new Observations(List.of(new TermWork("a", 1, 100, 200, 5)), List.of(), List.of(),
                List.of(new Trace("a", List.of(acquired(1), lost(1)), true)), List.of());

        assertThat(FuzzChecker.notVacuous(oneTerm, 3)).containsExactly(
                "liveness: only 1 acquisitions, at least 3 expected (the run would prove little)",
                "liveness: work was recorded in only 1 terms, at least 2 expected (no handover was checked)");
    }

    @Test
    void failuresOfTheRunAreReported() {
        Observations failed = new Observations(clean().work(), clean().scopes(), clean().writes(), clean().traces(),
                List.of("the worker of a threw java.lang.IllegalStateException"));

        assertThat(FuzzChecker.check(failed, 2).get(FuzzChecker.Property.RUN_COMPLETED))
                .containsExactly("the worker of a threw java.lang.IllegalStateException");
    }

    @Test
    void manyViolationsOfOneRuleAreCut() {
        List<TermWork> work = new ArrayList<>();
        for (int generation = 1; generation <= 10; generation++) {
            work.add(new TermWork("e" + generation, generation, 0, 1_000, 1));
        }
        Observations observations = new Observations(work, List.of(), List.of(), List.of(), List.of());

        List<String> violations = FuzzChecker.check(observations, 0).get(FuzzChecker.Property.ONE_LEADER_AT_A_TIME);

        assertThat(violations).filteredOn(v -> v.contains("two leaders at once")).hasSize(5);
        assertThat(violations).contains("... and 4 more like the above");
    }

    @Test
    void closestHandoverIsTheSmallestGap() {
        assertThat(FuzzChecker.closestHandover(clean().work())).isEqualTo("0.000 ms");
        assertThat(FuzzChecker.closestHandover(List.of(new TermWork("a", 1, 0, 1_000_000, 1),
                new TermWork("b", 2, 3_500_000, 4_000_000, 1)))).isEqualTo("2.500 ms");
        assertThat(FuzzChecker.closestHandover(List.of())).startsWith("none");
    }

    private static Observations clean() {
        List<TermWork> work = List.of(new TermWork("a", 1, 100, 500, 5), new TermWork("b", 2, 501, 900, 5));
        List<StoreWrite> writes = List.of(new StoreWrite("a", 1, false, 0, 10), new StoreWrite("a", 1, true, 460, 470),
                new StoreWrite("b", 2, false, 480, 490));
        List<Trace> traces = List.of(new Trace("a", List.of(acquired(1), lost(1)), true),
                new Trace("b", List.of(acquired(2), lost(2)), true));
        List<OpenScope> scopes = List.of(new OpenScope("a", 1, 450), new OpenScope("b", 2, 950));
        return new Observations(work, scopes, writes, traces, List.of());
    }

    private static ElectionEvent acquired(long generation) {
        return new ElectionEvent.Acquired(KEY, Instant.EPOCH, lease(generation));
    }

    private static ElectionEvent lost(long generation) {
        return new ElectionEvent.Lost(KEY, Instant.EPOCH, lease(generation), LossCause.STOPPED, "test");
    }

    private static Lease lease(long generation) {
        return new Lease(KEY, "owner", generation, Instant.EPOCH);
    }
}
