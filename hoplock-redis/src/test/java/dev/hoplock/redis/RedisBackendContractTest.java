package dev.hoplock.redis;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.redis.server.RedisExtension;
import dev.hoplock.redis.server.RedisServer;
import dev.hoplock.test.BackendContractTest;
import dev.hoplock.test.SharedBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The backend contract on a real {@code redis-server} started by the tests, in a database of its own (1), which
 * {@link #recreateContainer()} empties with {@code FLUSHDB} while the backend runs.
 */
@ExtendWith(RedisExtension.class)
class RedisBackendContractTest extends BackendContractTest {

    static final int DATABASE = 1;
    private static final SharedBackend<RedisBackend> SHARED = new SharedBackend<>(RedisBackend::close);

    private final RedisServer server;

    RedisBackendContractTest(RedisServer server) {
        this.server = server;
    }

    @Override
    protected Backend backend() throws Exception {
        return SHARED.get(() -> TestRedis.builder(server, DATABASE).build());
    }

    @Override
    protected void recreateContainer() throws Exception {
        server.commandIn(DATABASE, "FLUSHDB");
    }

    @AfterAll
    static void closeBackend() throws Exception {
        SHARED.close();
    }
}
