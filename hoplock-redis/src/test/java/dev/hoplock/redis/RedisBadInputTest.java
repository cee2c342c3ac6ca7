package dev.hoplock.redis;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.Durability;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.redis.server.RedisExtension;
import dev.hoplock.redis.server.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Bad input, each refused at build (or at the first call) with an error that names the cause and the fix, and never a
 * store that looks usable: wrong or missing password, an unreachable server, a replica as the target, an ACL without
 * the scripts, the keys or INFO, an invalid prefix or URI, a foreign value under the prefix.
 */
@ExtendWith(RedisExtension.class)
class RedisBadInputTest {

    private static final String PASSWORD = "s3cret-" + UUID.randomUUID();

    private final RedisServer server;

    RedisBadInputTest(RedisServer server) {
        this.server = server;
    }

    @Test
    void aWrongPasswordIsAccessDeniedNamingTheFix() throws Exception {
        try (RedisServer secured = RedisServer.startWithPassword(PASSWORD)) {
            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> TestRedis.builder(secured, 0).password("not-the-password").build());

            assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED);
            assertThat(e.getMessage()).contains(secured.uri(0), "refused the user name and password", "check the"
                    + " password").doesNotContain("not-the-password", PASSWORD);
        }
    }

    @Test
    void aMissingPasswordIsAccessDeniedSayingThatOneIsRequired() throws Exception {
        try (RedisServer secured = RedisServer.startWithPassword(PASSWORD)) {
            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> TestRedis.builder(secured, 0).build());

            assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED);
            assertThat(e.getMessage()).contains("requires a password", "set the password");
        }
    }

    @Test
    void theRightPasswordInTheUriWorks() throws Exception {
        try (RedisServer secured = RedisServer.startWithPassword(PASSWORD);
                RedisBackend backend = RedisBackend.builder()
                        .uri("redis://:" + PASSWORD + "@127.0.0.1:" + secured.port() + "/0").build()) {
            assertThat(backend.write("k", Handle.NONE, "x".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(5)))
                    .isInstanceOf(WriteResult.Written.class);
            assertThat(backend.describe()).isEqualTo(secured.uri(0) + " prefix hoplock:");
        }
    }

    @Test
    void anUnreachableServerIsUnreachableNamingTheAddress() throws Exception {
        int port = RedisServer.freePort();
        BackendException e = catchThrowableOfType(BackendException.class,
                () -> RedisBackend.builder().uri("redis://127.0.0.1:" + port + "/0").build());

        assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
        assertThat(e.isRetryable()).isTrue();
        assertThat(e.getMessage()).contains("cannot connect to redis://127.0.0.1:" + port + "/0", "check the host and"
                + " port", "nothing was sent");
    }

    /** Redis has no bucket to create; the one thing that must exist is the database the URI names. */
    @Test
    void aDatabaseThatDoesNotExistIsMisconfiguredNamingTheFix() {
        BackendException e = catchThrowableOfType(BackendException.class,
                () -> TestRedis.builder(server, 99).build());

        assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.MISCONFIGURED);
        assertThat(e.getMessage()).contains(server.uri(99), "has no such database", "DB index is out of range",
                "raise 'databases' in redis.conf", "nothing was sent");
    }

    /** A prefix needs no creation: a new one works at once, and its first read finds no lease. */
    @Test
    void aPrefixWithNoKeysYetIsUsableAtOnce() throws Exception {
        try (RedisBackend backend = TestRedis.builder(server, 0).prefix(TestRedis.uniquePrefix("new")).build()) {
            assertThat(backend.read("k", Duration.ofSeconds(5))).isEmpty();
            assertThat(backend.write("k", Handle.NONE, "x".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(5)))
                    .isInstanceOf(WriteResult.Written.class);
        }
    }

    @Test
    void aReplicaAsTheTargetIsRefusedNamingItsPrimaryAndTheFix() throws Exception {
        try (RedisServer replica = RedisServer.start()) {
            replica.replicate(server);
            BackendException e = catchThrowableOfType(BackendException.class,
                    () -> TestRedis.builder(replica, 0).build());

            assertThat(e.kind()).isEqualTo(Kind.MISCONFIGURED);
            assertThat(e.getMessage()).contains("is a read-only replica of 127.0.0.1:" + server.port(),
                    "Point hoplock at the primary", "redis-sentinel://");
        }
    }

    @Test
    void aWriteToAReplicaAtRunTimeIsRefusedAndSaysNothingWasWritten() throws Exception {
        try (RedisServer node = RedisServer.start();
                RedisBackend backend = TestRedis.builder(node, 0).build()) {
            node.replicate(server);
            BackendException e = catchThrowableOfType(BackendException.class, () -> backend.write("k", Handle.NONE,
                    "x".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(5)));

            assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
            assertThat(e.getMessage()).contains("read-only replica now (READONLY)", "nothing was written",
                    "Point hoplock at the primary");
        }
    }

    /** Without EVAL and EVALSHA, without the scripting category, or with EVAL only (the backend sends EVALSHA). */
    @ParameterizedTest
    @ValueSource(strings = {"+info +config|get +wait", "+@all -@scripting", "+@all -evalsha"})
    void anAclWithoutTheScriptsIsAccessDeniedNamingTheAclToGrant(String commands) throws Exception {
        String prefix = TestRedis.uniquePrefix("acl");
        String user = aclUser(("~" + prefix + "* " + commands).split(" "));

        BackendException e = catchThrowableOfType(BackendException.class,
                () -> TestRedis.builder(server, 0).username(user).password(PASSWORD).prefix(prefix).build());

        assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED);
        assertThat(e.getMessage()).contains("may not run", "NOPERM", "ACL SETUSER <user> on ~" + prefix + "*",
                "+eval +evalsha").doesNotContain(PASSWORD);
    }

    @Test
    void anAclWithoutTheKeysUnderThePrefixIsAccessDeniedNamingTheKeyPattern() throws Exception {
        String prefix = TestRedis.uniquePrefix("acl");
        String user = aclUser(("~elsewhere:* " + RedisErrors.COMMANDS).split(" "));

        BackendException e = catchThrowableOfType(BackendException.class,
                () -> TestRedis.builder(server, 0).username(user).password(PASSWORD).prefix(prefix).build());

        assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED);
        assertThat(e.getMessage()).contains("~" + prefix + "*").doesNotContain(PASSWORD);
    }

    @Test
    void theLeastPrivilegeAclOfTheDocsIsEnoughAndReportsEverything() throws Exception {
        String prefix = TestRedis.uniquePrefix("acl");
        String user = aclUser(("~" + prefix + "* " + RedisErrors.COMMANDS).split(" "));

        try (RedisBackend backend = TestRedis.builder(server, 0).username(user).password(PASSWORD).prefix(prefix)
                .build()) {
            StoreCapabilities capabilities = backend.verify();
            assertThat(capabilities.durability()).isEqualTo(Durability.LOST_ON_RESTART);
            assertThat(capabilities.durabilityDetail()).contains("appendonly no", "appendfsync everysec");
            assertThat(backend.write("k", Handle.NONE, "x".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(5)))
                    .isInstanceOf(WriteResult.Written.class);
        }
    }

    @Test
    void anAclWithoutInfoAndConfigIsAcceptedButPromisesNothing() throws Exception {
        String prefix = TestRedis.uniquePrefix("acl");
        String user = aclUser("~" + prefix + "*", "+eval", "+evalsha", "+exists", "+hget", "+hmget", "+hset", "+del");

        try (RedisBackend backend = TestRedis.builder(server, 0).username(user).password(PASSWORD).prefix(prefix)
                .build()) {
            StoreCapabilities capabilities = backend.verify();
            assertThat(capabilities.durability()).isEqualTo(Durability.LOST_ON_RESTART);
            assertThat(capabilities.durabilityDetail()).contains("INFO refused");
        }
        BackendException refused = catchThrowableOfType(BackendException.class, () -> TestRedis.builder(server, 0)
                .username(user).password(PASSWORD).prefix(prefix).minimumDurability(Durability.KEPT).build());
        assertThat(refused.kind()).isEqualTo(Kind.MISCONFIGURED);
        assertThat(refused.getMessage()).contains("INFO refused", "ACL +info");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "has space:", "glob*:", "q?:", "[x]:", "tab\t:", "ü:"})
    void anInvalidPrefixIsRefusedNamingTheSettingAndTheRule(String prefix) {
        InvalidSettingException e = catchThrowableOfType(InvalidSettingException.class,
                () -> TestRedis.builder(server, 0).prefix(prefix).build());

        assertThat(e.setting()).isEqualTo("prefix");
        assertThat(e.getMessage()).contains("letters, digits", "no glob characters");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://:pw-in-uri@127.0.0.1:6379", "redis://:pw-in-uri@", "not a uri :pw-in-uri@",
            "redis-sentinel://:pw-in-uri@127.0.0.1:26379/0"})
    void anInvalidUriIsRefusedWithoutItsPassword(String uri) {
        InvalidSettingException e = catchThrowableOfType(InvalidSettingException.class,
                () -> RedisBackend.builder().uri(uri).build());

        assertThat(e.setting()).isEqualTo("uri");
        assertThat(e.getMessage()).doesNotContain("pw-in-uri");
        assertThat(String.valueOf(e.rejectedValue())).doesNotContain("pw-in-uri");
        assertThat(e.getCause()).isNull();
    }

    @Test
    void nonPositiveTimeoutsAndImpossibleWaitsAreRefusedNamingTheSetting() {
        assertThat(catchThrowableOfType(InvalidSettingException.class, () -> TestRedis.builder(server, 0)
                .requestTimeout(Duration.ZERO).build()).setting()).isEqualTo("requestTimeout");
        assertThat(catchThrowableOfType(InvalidSettingException.class, () -> TestRedis.builder(server, 0)
                .connectTimeout(Duration.ofSeconds(-1)).build()).setting()).isEqualTo("connectTimeout");
        assertThat(catchThrowableOfType(InvalidSettingException.class, () -> TestRedis.builder(server, 0)
                .waitForReplicas(-1).build()).setting()).isEqualTo("waitForReplicas");
        assertThat(catchThrowableOfType(InvalidSettingException.class, () -> RedisBackend.builder().build())
                .setting()).isEqualTo("uri");
    }

    @Test
    void aForeignValueUnderThePrefixIsReportedAsMisconfiguredNeverAsALease() throws Exception {
        String prefix = TestRedis.uniquePrefix("foreign");
        server.command("SET", prefix + "taken", "someone else's string");
        server.command("HSET", prefix + "hash", "field", "value");
        try (RedisBackend backend = TestRedis.builder(server, 0).prefix(prefix).build()) {
            BackendException string = catchThrowableOfType(BackendException.class,
                    () -> backend.read("taken", Duration.ofSeconds(5)));
            BackendException hash = catchThrowableOfType(BackendException.class,
                    () -> backend.read("hash", Duration.ofSeconds(5)));

            assertThat(string.kind()).isEqualTo(Kind.MISCONFIGURED);
            assertThat(string.getMessage()).contains("found a value that hoplock did not write", "prefix of its own");
            assertThat(hash.kind()).isEqualTo(Kind.MISCONFIGURED);
            assertThat(hash.getMessage()).contains("without hoplock's version field", "prefix of its own");
            assertThat(backend.write("taken", Handle.NONE, "x".getBytes(StandardCharsets.UTF_8),
                    Duration.ofSeconds(5))).as("a create over a foreign value").isEqualTo(WriteResult.preconditionFailed());
        }
    }

    private String aclUser(String... rules) throws Exception {
        String user = "hoplock-test-" + UUID.randomUUID().toString().substring(0, 8);
        String[] command = new String[rules.length + 5];
        command[0] = "ACL";
        command[1] = "SETUSER";
        command[2] = user;
        command[3] = "on";
        command[4] = ">" + PASSWORD;
        System.arraycopy(rules, 0, command, 5, rules.length);
        server.command(command);
        return user;
    }
}
