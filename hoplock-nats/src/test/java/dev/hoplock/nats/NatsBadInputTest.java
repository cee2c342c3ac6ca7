package dev.hoplock.nats;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.nats.server.NatsServer;
import io.nats.client.Connection;
import io.nats.client.KeyValueManagement;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.PurgeOptions;
import io.nats.client.api.StorageType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * Bad input, each against a real nats-server: a clear {@link BackendException} (or {@link InvalidSettingException})
 * that names the cause and the fix, and never a false "you lead". Servers with users and permissions are started by
 * the test; the users' passwords never appear in a message ({@link NatsSecretsTest} checks more).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NatsBadInputTest {

    static final String ADMIN_PASSWORD = "admin-Pass-7c1e";
    static final String PERMS_BUCKET = "perm";
    /** The least privilege of docs/stores/nats.md for bucket 'perm' and key prefix 'app'. */
    static final String LEAST_PRIVILEGE = "publish: { allow: [\"$JS.API.STREAM.INFO.KV_perm\","
            + " \"$JS.API.STREAM.MSG.GET.KV_perm\", \"$KV.perm.app.>\"] }, subscribe: { allow: [\"_INBOX.>\"] }";

    private NatsServer auth;
    private NatsServer accounts;
    private NatsServer noJetStream;

    @BeforeAll
    void startServers() throws Exception {
        auth = NatsServer.start("auth", true, "authorization {\n users: [\n"
                + "  { user: admin, password: \"" + ADMIN_PASSWORD + "\" }\n"
                + "  { user: least, password: \"least-Pass-1\", permissions: { " + LEAST_PRIVILEGE + " } }\n"
                + "  { user: inforead, password: \"inforead-Pass-2\", permissions: { publish: { allow: ["
                + "\"$JS.API.STREAM.INFO.>\"] }, subscribe: { allow: [\"_INBOX.>\"] } } }\n"
                + "  { user: readonly, password: \"readonly-Pass-3\", permissions: { publish: { allow: ["
                + "\"$JS.API.STREAM.INFO.KV_perm\", \"$JS.API.STREAM.MSG.GET.KV_perm\"] }, subscribe: { allow: ["
                + "\"_INBOX.>\"] } } }\n"
                + "  { user: noapi, password: \"noapi-Pass-8\", permissions: { publish: { allow: ["
                + "\"$KV.perm.>\"] }, subscribe: { allow: [\"_INBOX.>\", \"$KV.perm.>\"] } } }\n"
                + "  { user: noinbox, password: \"noinbox-Pass-4\", permissions: { publish: { allow: [\">\"] },"
                + " subscribe: { deny: [\"_INBOX.>\"] } } }\n"
                + " ]\n}\n");
        accounts = NatsServer.start("accounts", true, "accounts {\n"
                + " WITHJS: { jetstream: enabled, users: [ { user: js, password: \"js-Pass-5\" } ] }\n"
                + " NOJS: { users: [ { user: nojs, password: \"nojs-Pass-6\" } ] }\n}\n");
        noJetStream = NatsServer.start("nojs", false, "");
        try (NatsBackend admin = adminBuilder().bucket(PERMS_BUCKET).createBucket(true).build()) {
            assertThat(admin.verify().summary()).contains("swap VERIFIED");
        }
    }

    @AfterAll
    void stopServers() throws Exception {
        for (NatsServer server : new NatsServer[] {auth, accounts, noJetStream}) {
            if (server != null) {
                server.close();
            }
        }
    }

    private NatsBackendBuilder adminBuilder() {
        return NatsBackend.builder().servers(auth.url()).userInfo("admin", ADMIN_PASSWORD)
                .requestTimeout(Duration.ofSeconds(3));
    }

    private static BackendException refusal(NatsBackendBuilder builder) {
        return catchThrowableOfType(BackendException.class, builder::build);
    }

    @Test
    void wrongPasswordIsAccessDeniedNamingTheCredentials() {
        BackendException e = refusal(NatsBackend.builder().servers(auth.url()).userInfo("admin", "wrong-Pass-0")
                .connectTimeout(Duration.ofMillis(700)));
        assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.ACCESS_DENIED);
        assertThat(e.getMessage()).contains("refused the credentials", "check the user and password")
                .doesNotContain("wrong-Pass-0", ADMIN_PASSWORD);
    }

    @Test
    void unreachableServerIsUnreachableNamingTheServer() throws Exception {
        int port = NatsServer.freePort();
        BackendException e = refusal(NatsBackend.builder().servers("nats://127.0.0.1:" + port)
                .connectTimeout(Duration.ofMillis(500)));
        assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.UNREACHABLE);
        assertThat(e.getMessage()).contains("cannot connect to NATS at nats://127.0.0.1:" + port, "is running");
    }

    @Test
    void missingBucketWithoutCreationIsMissingContainerNamingTheFix() {
        BackendException e = refusal(adminBuilder().bucket("does-not-exist"));
        assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.MISSING_CONTAINER);
        assertThat(e.getMessage()).contains("bucket 'does-not-exist' does not exist", "createBucket(true)",
                "nats kv add does-not-exist", "nats stream purge KV_does-not-exist --seq=");
    }

    @Test
    void jetStreamDisabledOnTheServerIsNamed() {
        BackendException e = refusal(NatsBackend.builder().servers(noJetStream.url()).createBucket(true)
                .requestTimeout(Duration.ofSeconds(2)));
        assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.MISCONFIGURED);
        assertThat(e.getMessage()).contains("JetStream is not enabled on the NATS server", "-js");
    }

    @Test
    void anAccountWithoutJetStreamIsNamed() {
        BackendException e = refusal(NatsBackend.builder().servers(accounts.url()).userInfo("nojs", "nojs-Pass-6")
                .createBucket(true).requestTimeout(Duration.ofSeconds(2)));
        assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.MISCONFIGURED);
        assertThat(e.getMessage()).contains("account", "JetStream").doesNotContain("nojs-Pass-6");
        // The same server, an account with JetStream: works.
        assertThat(catchThrowableOfType(BackendException.class, () -> NatsBackend.builder().servers(accounts.url())
                .userInfo("js", "js-Pass-5").createBucket(true).build().close())).isNull();
    }

    @Test
    void aUserThatMayNotReadKeysIsToldWhichPermission() {
        BackendException e = refusal(NatsBackend.builder().servers(auth.url()).userInfo("inforead", "inforead-Pass-2")
                .bucket(PERMS_BUCKET).requestTimeout(Duration.ofSeconds(3)));
        assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.ACCESS_DENIED);
        assertThat(e.getMessage()).contains("may not publish to $JS.API.STREAM.MSG.GET.KV_perm",
                "Permissions Violation");
    }

    @Test
    void aUserThatMayNotWriteKeysIsToldWhichPermissionAndNothingIsStored() {
        BackendException e = refusal(NatsBackend.builder().servers(auth.url()).userInfo("readonly", "readonly-Pass-3")
                .bucket(PERMS_BUCKET).keyPrefix("app").requestTimeout(Duration.ofSeconds(3)));
        assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.ACCESS_DENIED);
        assertThat(e.getMessage()).contains("may not publish to $KV.perm.app.>", "nothing was stored");
    }

    @Test
    void aUserThatMayNotCreateTheBucketIsToldWhichPermission() {
        BackendException e = refusal(NatsBackend.builder().servers(auth.url()).userInfo("least", "least-Pass-1")
                .bucket("not-there").createBucket(true).requestTimeout(Duration.ofSeconds(3)));
        assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.ACCESS_DENIED);
        assertThat(e.getMessage()).contains("may not publish to $JS.API.STREAM.INFO.KV_not-there");
    }

    /**
     * A user that may use the bucket's subjects but not the JetStream API ($JS.API.>): refused at build naming the
     * subject to allow, and an elector over it (check left to the elector) reports the same and never leads.
     */
    @Test
    void aUserWithoutTheJetStreamApiIsToldWhichPermissionAndNeverLeads() throws Exception {
        NatsBackendBuilder builder = NatsBackend.builder().servers(auth.url()).userInfo("noapi", "noapi-Pass-8")
                .bucket(PERMS_BUCKET).keyPrefix("app").requestTimeout(Duration.ofSeconds(3));
        BackendException e = refusal(builder);
        assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.ACCESS_DENIED);
        assertThat(e.getMessage()).contains("may not publish to $JS.API.STREAM.INFO.KV_perm", "Permissions Violation")
                .doesNotContain("noapi-Pass-8");

        try (NatsBackend backend = builder.verify(false).build();
             Elector elector = Elector.builder(backend, "noapi/leader").owner("noapi-1").ttl(Duration.ofSeconds(2))
                     .build()) {
            List<ElectionEvent> events = new CopyOnWriteArrayList<>();
            elector.addListener(events::add);
            elector.start();
            await("the elector reports the missing permission").atMost(Duration.ofSeconds(15))
                    .until(() -> events.stream().anyMatch(event -> event instanceof ElectionEvent.Problem problem
                            && problem.message().contains("$JS.API.STREAM.INFO.KV_perm")));
            assertThat(elector.isLeader()).isFalse();
            assertThat(events).noneMatch(event -> event instanceof ElectionEvent.Acquired);
        }
    }

    @Test
    void aUserThatMayNotReceiveRepliesIsToldAboutTheInbox() {
        BackendException e = refusal(NatsBackend.builder().servers(auth.url()).userInfo("noinbox", "noinbox-Pass-4")
                .bucket(PERMS_BUCKET).requestTimeout(Duration.ofSeconds(2)));
        assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.ACCESS_DENIED);
        assertThat(e.getMessage()).contains("may not subscribe to _INBOX.>");
    }

    @Test
    void theDocumentedLeastPrivilegeIsEnoughToLead() throws Exception {
        try (NatsBackend backend = NatsBackend.builder().servers(auth.url()).userInfo("least", "least-Pass-1")
                .bucket(PERMS_BUCKET).keyPrefix("app").build();
             Elector elector = Elector.builder(backend, "least/leader").owner("least-1")
                     .ttl(Duration.ofSeconds(2)).build()) {
            elector.start();
            await("the least-privileged user leads").atMost(Duration.ofSeconds(10)).until(elector::isLeader);
            assertThat(backend.kvKey("least/leader")).isEqualTo("app.least.leader");
        }
    }

    @Test
    void aBucketThatNumbersFromOneIsRefusedUntilItsFirstRevisionIsMovedUp() throws Exception {
        try (Connection connection = io.nats.client.Nats.connect(new io.nats.client.Options.Builder()
                .server(auth.url()).userInfo("admin", ADMIN_PASSWORD).build())) {
            KeyValueManagement kvm = connection.keyValueManagement();
            kvm.create(KeyValueConfiguration.builder().name("byhand").maxHistoryPerKey(1)
                    .storageType(StorageType.File).build());
            BackendException e = refusal(adminBuilder().bucket("byhand"));
            assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.MISCONFIGURED);
            assertThat(e.getMessage()).contains("numbers its revisions from 1",
                    "nats stream purge KV_byhand --seq=");
            // The documented fix, on the empty bucket: purge to a random first revision.
            connection.jetStreamManagement().purgeStream("KV_byhand",
                    PurgeOptions.builder().sequence(Revisions.randomFirst()).build());
            try (NatsBackend fixed = adminBuilder().bucket("byhand").build()) {
                assertThat(fixed.write("k", Handle.NONE, "x".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(3)))
                        .isInstanceOf(WriteResult.Written.class);
            }
        }
    }

    @Test
    void memoryStorageAndAWrongHistoryOrReplicaCountAreRefused() throws Exception {
        try (Connection connection = io.nats.client.Nats.connect(new io.nats.client.Options.Builder()
                .server(auth.url()).userInfo("admin", ADMIN_PASSWORD).build())) {
            connection.keyValueManagement().create(KeyValueConfiguration.builder().name("inmemory")
                    .maxHistoryPerKey(5).storageType(StorageType.Memory).build());
        }
        BackendException e = refusal(adminBuilder().bucket("inmemory").history(1).replicas(3));
        assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.MISCONFIGURED);
        assertThat(e.getMessage()).contains("keeps its data in memory", "5 values per key (history), not the 1",
                "1 replicas, not the 3");
    }

    @Test
    void aBucketDeletedWhileRunningIsAMissingContainerAndAnElectorStopsLeading() throws Exception {
        String bucket = TestNats.newBucket("deleted");
        try (NatsBackend backend = TestNats.backend(bucket);
             Elector elector = Elector.builder(backend, "leader").owner("deleted-1").ttl(Duration.ofSeconds(2))
                     .build()) {
            List<ElectionEvent> events = new CopyOnWriteArrayList<>();
            elector.addListener(events::add);
            elector.start();
            await("leads").atMost(Duration.ofSeconds(10)).until(elector::isLeader);
            TestNats.deleteBucket(bucket);
            await("stops leading once the bucket is gone").atMost(Duration.ofSeconds(10))
                    .until(() -> !elector.isLeader());
            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> backend.write("other", Handle.NONE, new byte[] {1}, Duration.ofSeconds(2)));
            assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.MISSING_CONTAINER);
            assertThat(e.getMessage()).contains("bucket '" + bucket + "' does not exist", "nothing was stored");
            assertThat(events).anyMatch(ev -> ev instanceof ElectionEvent.Lost);
        }
    }

    @Test
    void invalidSettingsAreRefusedNamingTheSettingWithoutTheSecret() {
        assertThat(catchThrowableOfType(InvalidSettingException.class,
                () -> NatsBackend.builder().bucket("no.dots").build()).setting()).isEqualTo("bucket");
        assertThat(catchThrowableOfType(InvalidSettingException.class,
                () -> NatsBackend.builder().keyPrefix("a..b").build()).setting()).isEqualTo("keyPrefix");
        InvalidSettingException url = catchThrowableOfType(InvalidSettingException.class,
                () -> NatsBackend.builder().servers("nats://admin:" + ADMIN_PASSWORD + "@127.0.0.1:4222").build());
        assertThat(url.setting()).isEqualTo("servers");
        assertThat(url.getMessage()).contains("must not carry credentials").doesNotContain(ADMIN_PASSWORD);
        assertThat(catchThrowableOfType(InvalidSettingException.class,
                () -> NatsBackend.builder().replicas(7).build()).setting()).isEqualTo("replicas");
        assertThat(catchThrowableOfType(InvalidSettingException.class,
                () -> NatsBackend.builder().requestTimeout(Duration.ZERO).build()).setting()).isEqualTo("requestTimeout");
    }
}
