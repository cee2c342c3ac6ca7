package dev.hoplock.cli;

import dev.hoplock.core.backend.FilesystemBackend;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code hoplock-cli} run in-process ({@link HoplockCli#run}) over the filesystem store, configured by an
 * {@code application.yml} as the starter reads it: {@code show} prints the record, {@code release} frees only a record
 * observed unchanged for the TTL (a live elector makes it refuse and keeps leading), never deletes, and every outcome
 * has its exit code.
 */
class HoplockCliTests {

    private static final String KEY = "elections/nightly";

    @TempDir
    Path dir;

    record Result(int code, String out, String err) {
    }

    private Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = HoplockCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Path settings() throws Exception {
        Path leases = Files.createDirectories(dir.resolve("leases"));
        Path yml = dir.resolve("application.yml");
        Files.writeString(yml, """
                hoplock:
                  backend: filesystem
                  filesystem:
                    directory: %s
                  ttl: 2s
                  ownership:
                    group: billing
                """.formatted(leases));
        return yml;
    }

    private FilesystemBackend store() {
        return new FilesystemBackend(dir.resolve("leases"));
    }

    private void plant(LeaseRecord record) throws Exception {
        store().write(KEY, Handle.NONE, LeaseRecordCodec.encode(record), Duration.ofSeconds(1));
    }

    private LeaseRecord stored() throws Exception {
        return LeaseRecordCodec.decode(store().read(KEY, Duration.ofSeconds(1)).orElseThrow().content());
    }

    @Test
    void showPrintsTheRecordAsTheEndpointShowsIt() throws Exception {
        Path yml = settings();
        Result absent = run(yml.toString(), "show", KEY);
        assertThat(absent.code()).isEqualTo(ExitCode.OK);
        assertThat(absent.out()).contains("key:        " + KEY).contains("state:      absent");

        plant(new LeaseRecord(7, Instant.now().plus(Duration.ofHours(1)), "node-1", "n"));
        Result held = run(yml.toString(), "show", KEY);
        assertThat(held.code()).isEqualTo(ExitCode.OK);
        assertThat(held.out()).contains("state:      held").contains("holder:     node-1")
                .contains("generation: 7").contains("by this machine's clock")
                .contains("more than 2 x TTL ahead").contains("store:      " + store().describe());
        assertThat(dir.resolve("leases")).isDirectoryNotContaining("glob:**/billing*");
    }

    @Test
    void releaseRefusesWhileALiveElectorHoldsTheKeyAndTheElectorKeepsLeading() throws Exception {
        Path yml = settings();
        try (Elector live = Elector.builder(store(), KEY).owner("live-node").ttl(Duration.ofSeconds(2))
                .renewInterval(Duration.ofMillis(500)).pollInterval(Duration.ofMillis(100)).build()) {
            live.start();
            await().atMost(Duration.ofSeconds(10)).until(live::isLeader);
            long generation = stored().generation();

            Result result = run(yml.toString(), "release", KEY, "--poll=100ms");

            assertThat(result.code()).isEqualTo(ExitCode.REFUSED);
            assertThat(result.err()).contains("REFUSED").contains("live-node renewed it")
                    .contains("nothing was written");
            assertThat(live.isLeader()).isTrue();
            assertThat(stored().owner()).isEqualTo("live-node");
            assertThat(stored().generation()).isEqualTo(generation);
        }
    }

    @Test
    void releaseFreesADeadHoldersRecordAfterOneTtlAtTheSameGeneration() throws Exception {
        Path yml = settings();
        plant(new LeaseRecord(41, Instant.now().minusSeconds(1), "gone-node", "n"));

        Result result = run(yml.toString(), "release", KEY, "--ttl", "1s", "--poll=100ms");

        assertThat(result.code()).as(result.err()).isEqualTo(ExitCode.OK);
        assertThat(result.out()).contains("observing '" + KEY + "'").contains("first read:")
                .contains("holder:     gone-node").contains("written:").contains("state:      released")
                .contains("holder:     (none)")
                .contains("RELEASED: " + KEY + ": observed the record of gone-node at generation 41")
                .contains("next holder takes generation 42 or higher");
        LeaseRecord released = stored();
        assertThat(released.isReleased()).isTrue();
        assertThat(released.generation()).isEqualTo(41);

        Result again = run(yml.toString(), "release", KEY, "--ttl=1s");
        assertThat(again.code()).isEqualTo(ExitCode.OK);
        assertThat(again.out()).contains("NOTHING_TO_RELEASE").contains("already released at generation 41");
    }

    @Test
    void aFarAheadExpiryNeedsTrustTtlAndACorruptRecordIsRefused() throws Exception {
        Path yml = settings();
        plant(new LeaseRecord(3, Instant.now().plus(Duration.ofDays(1)), "skewed-node", "n"));
        Result refused = run(yml.toString(), "release", KEY, "--ttl=1s");
        assertThat(refused.code()).isEqualTo(ExitCode.REFUSED);
        assertThat(refused.err()).contains("--trust-ttl");

        Result trusted = run(yml.toString(), "release", KEY, "--ttl=1s", "--poll=100ms", "--trust-ttl");
        assertThat(trusted.code()).as(trusted.err()).isEqualTo(ExitCode.OK);
        assertThat(stored().isReleased()).isTrue();
        assertThat(stored().generation()).isEqualTo(3);

        Path file = store().fileFor(KEY);
        Files.writeString(file, "{\"generation\":-1}");
        Result corrupt = run(yml.toString(), "release", KEY, "--ttl=1s");
        assertThat(corrupt.code()).isEqualTo(ExitCode.REFUSED);
        assertThat(corrupt.err()).contains("'" + KEY + "'").contains("negative").contains("never released by hand");
        assertThat(Files.readString(file)).isEqualTo("{\"generation\":-1}");
        Result shown = run(yml.toString(), "show", KEY);
        assertThat(shown.code()).isEqualTo(ExitCode.OK);
        assertThat(shown.out()).contains("state:      corrupt").contains("error:");
    }

    @Test
    void trustTtlWithoutAnExplicitTtlIsAUsageErrorAndWritesNothing() throws Exception {
        Path yml = settings();
        LeaseRecord skewed = new LeaseRecord(3, Instant.now().plus(Duration.ofHours(23)), "long-lock", "n");
        plant(skewed);
        Result result = run(yml.toString(), "release", KEY, "--trust-ttl");
        assertThat(result.code()).isEqualTo(ExitCode.USAGE);
        assertThat(result.err()).contains("--trust-ttl needs an explicit --ttl")
                .contains("no holder of this key uses a TTL longer");
        assertThat(stored()).isEqualTo(skewed);
    }

    @Test
    void withoutTtlEachKeyIsObservedForTheTtlItsSettingsGiveAndNoRefusalSuggestsTrustingIt() throws Exception {
        Path leases = Files.createDirectories(dir.resolve("leases"));
        Path yml = dir.resolve("application.yml");
        Files.writeString(yml, """
                hoplock:
                  backend: filesystem
                  filesystem:
                    directory: %s
                  ttl: 2s
                  elections:
                    nightly:
                      key: elections/nightly
                      ttl: 7s
                  ownership:
                    group: billing
                    ttl: 9s
                """.formatted(leases));
        Instant farAhead = Instant.now().plus(Duration.ofHours(23));
        record Case(String key, String ttl, String source) {
        }
        for (Case c : new Case[] {new Case(KEY, "7s", "hoplock.elections.nightly.ttl"),
                new Case("billing/members/m-1", "9s", "hoplock.ownership.ttl"),
                new Case("locks/report", "2s", "hoplock.ttl")}) {
            store().write(c.key(), Handle.NONE, LeaseRecordCodec.encode(new LeaseRecord(3, farAhead, "holder", "n")),
                    Duration.ofSeconds(1));
            Result result = run(yml.toString(), "release", c.key());
            assertThat(result.code()).as(result.err()).isEqualTo(ExitCode.REFUSED);
            assertThat(result.out()).contains("for at least " + c.ttl() + " (").contains(c.source());
            assertThat(result.err()).contains("is a default").doesNotContain("--trust-ttl");
        }
    }

    @Test
    void settingsMayComeAsSpringArgumentsAndEveryMistakeHasItsExitCode() throws Exception {
        Files.createDirectories(dir.resolve("leases"));
        Result viaArgs = run("--hoplock.backend=filesystem", "--hoplock.filesystem.directory=" + dir.resolve("leases"),
                "show", KEY);
        assertThat(viaArgs.code()).as(viaArgs.err()).isEqualTo(ExitCode.OK);

        assertThat(run("show").code()).isEqualTo(ExitCode.USAGE);
        assertThat(run("delete", KEY).err()).contains("unknown command 'delete'").contains("usage:");
        assertThat(run("release", KEY, "--ttl=soon").err()).contains("--ttl 'soon' is not a duration");
        assertThat(run(settings().toString(), "show", "a//b").code()).isEqualTo(ExitCode.USAGE);

        Result noStore = run("--hoplock.backend=filesystem", "show", KEY);
        assertThat(noStore.code()).isEqualTo(ExitCode.CONFIGURATION);
        assertThat(noStore.err()).contains("hoplock.filesystem.directory");
    }
}
