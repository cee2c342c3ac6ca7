package dev.hoplock.redis;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.redis.server.RedisExtension;
import dev.hoplock.redis.server.RedisServer;
import dev.hoplock.test.ElectorFuzzTest;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The elector fuzz run (real electors, injected stalls, closes and step-downs; no two leaders at once, rising fencing
 * tokens) over {@link RedisBackend} on a real {@code redis-server} started by the tests.
 */
@ExtendWith(RedisExtension.class)
class RedisElectorFuzzTest extends ElectorFuzzTest {

    private final RedisServer server;
    private @Nullable RedisBackend backend;

    RedisElectorFuzzTest(RedisServer server) {
        this.server = server;
    }

    @Override
    protected Backend backend() throws Exception {
        backend = TestRedis.builder(server, 3).prefix(TestRedis.uniquePrefix("fuzz")).build();
        return backend;
    }

    @AfterAll
    void closeBackend() {
        if (backend != null) {
            backend.close();
        }
    }
}
