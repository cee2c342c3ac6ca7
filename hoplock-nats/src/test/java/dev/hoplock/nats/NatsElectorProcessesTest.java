package dev.hoplock.nats;

import dev.hoplock.test.process.ElectorProcessesTest;

import java.util.List;

/**
 * {@link ElectorProcessesTest} on a real nats-server: three JVMs ({@link NatsElectorMain}), each an elector over a
 * {@link NatsBackend} on one bucket made for this run and deleted after it; the leader is killed with SIGKILL, the next
 * one stopped with SIGTERM.
 */
class NatsElectorProcessesTest extends ElectorProcessesTest {

    private final String bucket = TestNats.newBucket("procs");

    @Override
    protected void prepareStore() throws Exception {
        TestNats.backend(bucket).close();
    }

    @Override
    protected void cleanUpStore() throws Exception {
        TestNats.deleteBucket(bucket);
    }

    @Override
    protected Class<?> electorMain() {
        return NatsElectorMain.class;
    }

    @Override
    protected List<String> storeArguments() {
        return List.of(TestNats.server().url(), bucket);
    }

    @Override
    protected String storeName() {
        return "NATS JetStream KV (one nats-server)";
    }

    @Override
    protected String runName() {
        return bucket;
    }
}
