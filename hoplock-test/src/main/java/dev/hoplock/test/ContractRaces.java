package dev.hoplock.test;

import static dev.hoplock.test.BackendContractTest.bytes;
import static dev.hoplock.test.BackendContractTest.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.backend.WriteResult.Refusal;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The races of a {@link BackendContractTest}: {@link BackendContractTest#raceWriters()} calls on one key, released
 * together through a {@link ConcurrentRace} (no sleeps), {@link BackendContractTest#raceRounds()} times; exactly one
 * must win every round and the stored bytes must be the winner's. Runs against the test's store with its timeout.
 */
final class ContractRaces extends ContractSteps {

    ContractRaces(BackendContractTest test) {
        super(test);
    }

    /** Which handle the racing writers of one round expect, after any set-up of the round's key. */
    @FunctionalInterface
    interface RoundSetUp {
        Handle expectedHandle(String key, int round) throws Exception;
    }

    /**
     * Races {@link BackendContractTest#raceWriters()} conditional writes that all expect the same handle, {@link BackendContractTest#raceRounds()} times:
     * exactly one wins, every other is refused as PRECONDITION_FAILED, and the winner's bytes are stored.
     */
    void writesExpecting(RoundSetUp setUp) throws Exception {
        try (ConcurrentRace race = new ConcurrentRace(raceWriters(), timeout())) {
            for (int round = 0; round < raceRounds(); round++) {
                String key = newKey();
                Handle expected = setUp.expectedHandle(key, round);
                List<byte[]> contents = contents(round);
                List<Object> results = race.run(writer -> store.write(key, expected, contents.get(writer), timeout()));

                int winner = singleWinner(results, round);
                assertThat(losers(results, winner)).as("round %d: every loser is refused as PRECONDITION_FAILED", round)
                        .allMatch(result -> result.equals(refused(Refusal.PRECONDITION_FAILED)));
                assertStored(key, contents.get(winner), ((WriteResult.Written) results.get(winner)).handle());
            }
        }
    }

    /**
     * Races conditional deletes and swaps that all name one handle: exactly one wins; after a delete won every other
     * call finds the key gone, after a swap won every other call is PRECONDITION_FAILED.
     */
    void deletesAndSwapsOfOneHandle() throws Exception {
        try (ConcurrentRace race = new ConcurrentRace(raceWriters(), timeout())) {
            for (int round = 0; round < raceRounds(); round++) {
                String key = newKey();
                Handle shared = create(key, "initial of round " + round);
                List<byte[]> contents = contents(round);
                List<Object> results = race.run(writer -> writer % 2 == 0
                        ? store.delete(key, shared, timeout())
                        : store.write(key, shared, contents.get(writer), timeout()));

                int winner = singleWinner(results, round);
                Object won = results.get(winner);
                List<Object> losers = losers(results, winner);
                if (won == DeleteResult.DELETED) {
                    assertThat(losers).as("round %d: after the delete won, every other call finds the key gone", round)
                            .allMatch(r -> r == DeleteResult.NOT_FOUND || r.equals(refused(Refusal.NOT_FOUND)));
                    assertThat(store.read(key, timeout())).as("round %d: deleted by the winner", round).isEmpty();
                } else {
                    assertThat(losers).as("round %d: after a swap won, every other call is PRECONDITION_FAILED", round)
                            .allMatch(r -> r == DeleteResult.PRECONDITION_FAILED
                                    || r.equals(refused(Refusal.PRECONDITION_FAILED)));
                    assertStored(key, contents.get(winner), ((WriteResult.Written) won).handle());
                }
            }
        }
    }

    private List<byte[]> contents(int round) {
        List<byte[]> contents = new ArrayList<>();
        for (int writer = 0; writer < raceWriters(); writer++) {
            contents.add(bytes("{\"round\":" + round + ",\"writer\":" + writer + ",\"nonce\":\"" + UUID.randomUUID() + "\"}"));
        }
        return contents;
    }

    private static List<Object> losers(List<Object> results, int winner) {
        List<Object> losers = new ArrayList<>(results);
        losers.remove(winner);
        return losers;
    }

    /** Asserts that exactly one result is a success (Written or DELETED) and returns its index. */
    private static int singleWinner(List<Object> results, int round) {
        List<Integer> winners = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            Object result = results.get(i);
            if (result instanceof WriteResult.Written || result == DeleteResult.DELETED) {
                winners.add(i);
            }
        }
        assertThat(winners).as("round %d: winners among %s", round, results).hasSize(1);
        return winners.get(0);
    }

    private int raceWriters() {
        return test.raceWriters();
    }

    private int raceRounds() {
        return test.raceRounds();
    }
}
