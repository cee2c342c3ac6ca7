package dev.hoplock.redis;

import dev.hoplock.redis.server.RedisExtension;
import dev.hoplock.redis.server.RedisServer;
import dev.hoplock.test.process.ElectorProcessesTest;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

/**
 * {@link ElectorProcessesTest} on a real {@code redis-server}: three more JVMs ({@link RedisElectorMain}), each an
 * elector over its own {@link RedisBackend}, on a prefix of this run; the leader is killed (kill -9), then the next
 * one stopped (SIGTERM).
 */
@ExtendWith(RedisExtension.class)
class RedisElectorProcessesTest extends ElectorProcessesTest {

    private final RedisServer server;
    private final String prefix = TestRedis.uniquePrefix("procs");

    RedisElectorProcessesTest(RedisServer server) {
        this.server = server;
    }

    @Override
    protected void prepareStore() {
        // A prefix needs no preparation: the keys are created by the first write.
    }

    @Override
    protected void cleanUpStore() throws Exception {
        server.commandIn(5, "EVAL", "for _, k in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', k) end"
                + " return 1", "0", prefix + "*");
    }

    @Override
    protected Class<?> electorMain() {
        return RedisElectorMain.class;
    }

    @Override
    protected List<String> storeArguments() {
        return List.of(server.uri(5), prefix);
    }

    @Override
    protected String storeName() {
        return "Redis 7.0";
    }

    @Override
    protected String runName() {
        return prefix.replace(":", "");
    }
}
