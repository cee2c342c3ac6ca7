package dev.hoplock.redis;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.redis.server.RedisServer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static dev.hoplock.redis.RedisDurabilityTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * No password (given to the builder or inside a URI) reaches a message, a cause's message, {@code describe()},
 * {@code toString()}, the capabilities or a log line, whether the password is right or wrong.
 */
class RedisSecretsTest {

    private static final String PASSWORD = "hoplock-redis-password-" + UUID.randomUUID();
    private static final String WRONG = "hoplock-wrong-password-" + UUID.randomUUID();

    @Test
    void passwordsAppearInNoMessageDescriptionCapabilityOrLogLine() throws Exception {
        List<String> texts = new ArrayList<>();
        PrintStream err = System.err;
        ByteArrayOutputStream logs = new ByteArrayOutputStream();
        try (RedisServer secured = RedisServer.startWithPassword(PASSWORD)) {
            System.setErr(new PrintStream(logs, true, StandardCharsets.UTF_8));
            try {
                String uri = "redis://:" + PASSWORD + "@127.0.0.1:" + secured.port() + "/0";
                try (RedisBackend backend = RedisBackend.builder().uri(uri).build()) {
                    texts.add(backend.describe());
                    texts.add(backend.toString());
                    texts.add(backend.verify().toString());
                    backend.write("k", Handle.NONE, bytes("a"), Duration.ofSeconds(5));
                    secured.pause();
                    try {
                        texts.addAll(chain(catchThrowable(() -> backend.read("k", Duration.ofMillis(200)))));
                    } finally {
                        secured.resume();
                    }
                }
                texts.addAll(chain(catchThrowable(() -> RedisBackend.builder().uri(secured.uri(0)).password(WRONG)
                        .build())));
                texts.addAll(chain(catchThrowable(() -> RedisBackend.builder()
                        .uri("redis://:" + WRONG + "@127.0.0.1:" + secured.port() + "/0").build())));
                texts.addAll(chain(catchThrowable(() -> RedisBackend.builder()
                        .uri("redis://user:" + WRONG + "@127.0.0.1:" + RedisServer.freePort() + "/0").build())));
                texts.addAll(chain(catchThrowable(() -> RedisBackend.builder()
                        .uri("redis://:" + PASSWORD + "@127.0.0.1:" + secured.port() + "/0").prefix("bad prefix")
                        .build())));
                texts.addAll(chain(catchThrowable(() -> RedisBackend.builder()
                        .uri("redis-sentinel://:" + PASSWORD + "@127.0.0.1:" + secured.port()).build())));
            } finally {
                System.setErr(err);
            }
        }
        texts.add(logs.toString(StandardCharsets.UTF_8));

        assertThat(logs.toString(StandardCharsets.UTF_8)).as("the backend logged its durability").contains("hoplock:");
        assertThat(texts).hasSizeGreaterThan(10).allSatisfy(text -> assertThat(text).doesNotContain(PASSWORD, WRONG));
    }

    /**
     * Cluster seeds carry passwords too: an unreachable cluster's failure (and Lettuce's cause) must not show them,
     * nor the refusal of a URI whose password has a '/' (which ends a parsed authority early).
     */
    @Test
    void anUnreachableClusterShowsNoPassword() throws Exception {
        List<String> texts = new ArrayList<>();
        PrintStream err = System.err;
        ByteArrayOutputStream logs = new ByteArrayOutputStream();
        System.setErr(new PrintStream(logs, true, StandardCharsets.UTF_8));
        try {
            RedisBackendBuilder inUri = RedisBackend.builder().cluster(List.of("redis://user:" + PASSWORD
                    + "@127.0.0.1:" + RedisServer.freePort(), "redis://:" + PASSWORD + "@127.0.0.1:"
                    + RedisServer.freePort())).requestTimeout(Duration.ofSeconds(2));
            texts.add(inUri.toString());
            texts.addAll(chain(catchThrowable(inUri::build)));
            texts.addAll(chain(catchThrowable(() -> RedisBackend.builder().cluster(List.of("redis://127.0.0.1:"
                    + RedisServer.freePort())).password(PASSWORD).requestTimeout(Duration.ofSeconds(2)).build())));
            texts.addAll(chain(catchThrowable(() -> RedisBackend.builder().cluster(List.of("redis://:pa/" + PASSWORD
                    + "@127.0.0.1:" + RedisServer.freePort())).requestTimeout(Duration.ofSeconds(2)).build())));
            texts.addAll(chain(catchThrowable(() -> RedisBackend.builder().uri("redis://:pa/" + PASSWORD
                    + "@127.0.0.1:" + RedisServer.freePort() + "/0").requestTimeout(Duration.ofSeconds(2)).build())));
        } finally {
            System.setErr(err);
        }
        texts.add(logs.toString(StandardCharsets.UTF_8));

        assertThat(texts).hasSizeGreaterThan(4).allSatisfy(text -> assertThat(text).doesNotContain(PASSWORD));
    }

    /** The message and toString of the exception and of every cause and suppressed exception. */
    private static List<String> chain(Throwable e) {
        assertThat(e).as("an exception was expected").isInstanceOfAny(BackendException.class,
                InvalidSettingException.class);
        List<String> texts = new ArrayList<>();
        for (Throwable t = e; t != null; t = t.getCause()) {
            texts.add(String.valueOf(t.getMessage()));
            texts.add(t.toString());
            for (Throwable suppressed : t.getSuppressed()) {
                texts.add(String.valueOf(suppressed));
            }
        }
        return texts;
    }
}
