package dev.hoplock.cli;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.system.CapturedOutput;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What {@code hoplock-cli} must do on every store, run in-process ({@link HoplockCli#run}) with the starter's settings
 * as arguments: {@code show} and {@code release} of a dead holder's record (released at its generation, never
 * deleted), and a refusal that writes nothing while a live elector renews the key. A subclass gives the store: the
 * settings, and the same store built directly, to plant and read records.
 */
abstract class CliOverStoreScenarios {

    static final String KEY = "locks/cli-report";

    record Result(int code, String out, String err) {
        /** Everything the tool printed, for checks that a secret or a bare stack trace is not in it. */
        String all() {
            return out + err;
        }
    }

    /** The {@code hoplock.*} (and {@code spring.*}) settings of the store, as {@code --name=value} arguments. */
    abstract List<String> settings();

    /** The same store, built directly. */
    abstract Backend store() throws Exception;

    Result run(List<String> settings, String... command) {
        List<String> args = new ArrayList<>(settings);
        args.add("--hoplock.ttl=2s");
        args.addAll(List.of(command));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = HoplockCli.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    Result run(String... command) {
        return run(settings(), command);
    }

    LeaseRecord stored(Backend store) throws Exception {
        return LeaseRecordCodec.decode(store.read(KEY, Duration.ofSeconds(5)).orElseThrow().content());
    }

    /**
     * A failure the operator can act on: the tool's own one-line message first (not a bare stack trace), and neither
     * the secret in what the tool printed nor in the log.
     */
    static void clearErrorWithoutSecret(Result result, CapturedOutput log, String secret, String... mentions) {
        assertThat(result.err()).as(result.err()).startsWith("hoplock-cli: ").doesNotContain("\tat ");
        for (String mention : mentions) {
            assertThat(result.err()).contains(mention);
        }
        assertThat(result.out()).doesNotContain("\tat ");
        assertThat(result.all()).doesNotContain(secret);
        assertThat(log.getAll()).doesNotContain(secret);
    }

    @Test
    void aDeadHoldersRecordIsShownThenReleasedAtItsGenerationAndNeverDeleted() throws Exception {
        Backend store = store();
        try {
            store.write(KEY, Handle.NONE, LeaseRecordCodec.encode(new LeaseRecord(12, Instant.now().minusSeconds(2),
                    "crashed-node", "n")), Duration.ofSeconds(5));

            Result shown = run("show", KEY);
            assertThat(shown.code()).as(shown.err()).isEqualTo(ExitCode.OK);
            assertThat(shown.out()).contains("state:      expired").contains("holder:     crashed-node")
                    .contains("generation: 12").contains("store:      " + store.describe());

            Result released = run("release", KEY, "--ttl=1s", "--poll=100ms");
            assertThat(released.code()).as(released.err()).isEqualTo(ExitCode.OK);
            assertThat(released.out()).contains("RELEASED: " + KEY + ": observed the record of crashed-node at"
                    + " generation 12");
            LeaseRecord record = stored(store);
            assertThat(record.isReleased()).isTrue();
            assertThat(record.generation()).isEqualTo(12);

            Result again = run("release", KEY, "--ttl=1s", "--poll=100ms");
            assertThat(again.code()).isEqualTo(ExitCode.OK);
            assertThat(again.out()).contains("NOTHING_TO_RELEASE");
        } finally {
            close(store);
        }
    }

    @Test
    void aRecordThatChangesWhileObservedIsRefusedAndTheLiveHolderKeepsIt() throws Exception {
        Backend store = store();
        try {
            try (Elector live = Elector.builder(store, KEY).owner("live-node").ttl(Duration.ofSeconds(2))
                    .renewInterval(Duration.ofMillis(500)).pollInterval(Duration.ofMillis(100)).build()) {
                live.start();
                await().atMost(Duration.ofSeconds(20)).until(live::isLeader);
                long generation = stored(store).generation();

                Result result = run("release", KEY, "--poll=100ms");

                assertThat(result.code()).as(result.out() + result.err()).isEqualTo(ExitCode.REFUSED);
                assertThat(result.err()).contains("REFUSED").contains("live-node renewed it")
                        .contains("nothing was written");
                assertThat(live.isLeader()).isTrue();
                assertThat(stored(store).owner()).isEqualTo("live-node");
                assertThat(stored(store).generation()).isEqualTo(generation);
            }
        } finally {
            close(store);
        }
    }

    /** Closes a store built by {@link #store()} that holds connections. */
    static void close(Backend store) throws Exception {
        if (store instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }
}
