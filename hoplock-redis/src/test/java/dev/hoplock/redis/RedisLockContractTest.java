package dev.hoplock.redis;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.redis.server.RedisExtension;
import dev.hoplock.redis.server.RedisServer;
import dev.hoplock.test.LockContractTest;
import dev.hoplock.test.SharedBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The named-lock contract on a real {@code redis-server} started by the tests. All tests share one backend and one
 * prefix; the contract gives every test its own lock names.
 */
@ExtendWith(RedisExtension.class)
class RedisLockContractTest extends LockContractTest {

    private static final SharedBackend<RedisBackend> SHARED = new SharedBackend<>(RedisBackend::close);

    private final RedisServer server;

    RedisLockContractTest(RedisServer server) {
        this.server = server;
    }

    @Override
    protected Backend backend() throws Exception {
        return SHARED.get(() -> TestRedis.builder(server, 2).prefix(TestRedis.uniquePrefix("locks")).build());
    }

    @AfterAll
    static void closeBackend() throws Exception {
        SHARED.close();
    }
}
