package dev.hoplock.redis;

import dev.hoplock.redis.server.RedisServer;

import java.time.Duration;
import java.util.UUID;

/** Builders for the tests' servers. */
final class TestRedis {

    private TestRedis() {
    }

    /** A builder for {@code server}'s {@code database}, with a short request timeout. */
    static RedisBackendBuilder builder(RedisServer server, int database) {
        return RedisBackend.builder().uri(server.uri(database)).requestTimeout(Duration.ofSeconds(5))
                .connectTimeout(Duration.ofSeconds(2));
    }

    /** A prefix no other test uses: {@code t-<name>-<random>:}. */
    static String uniquePrefix(String name) {
        return "t-" + name + "-" + UUID.randomUUID().toString().substring(0, 8) + ":";
    }
}
