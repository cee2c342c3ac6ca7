package dev.hoplock.core.election;

import dev.hoplock.core.FaultyBackend;
import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.StoreCapabilities.Support;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import static dev.hoplock.core.election.Cluster.KEY;
import static dev.hoplock.core.election.Cluster.POLL;
import static dev.hoplock.core.election.Cluster.RENEW;
import static dev.hoplock.core.election.Cluster.TTL;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * E0 (rule 0 of the elector's safety argument), campaign only on a verified store, on virtual time: a store whose
 * verification refuses, fails then answers, or hangs.
 */
class StoreVerificationTest {

    private final Cluster cluster = new Cluster();

    @Test
    void aStoreWithoutConditionalSwapIsNeverCampaignedOnAndTheReasonIsReportedOnce() throws Exception {
        Verifying backend = new Verifying(cluster);
        backend.answers.add(() -> answered(Capability.CONDITIONAL_SWAP));
        Cluster.Node a = node("a", backend, false).start();

        cluster.advance(TTL.multipliedBy(10));

        assertThat(a.elector.isLeader()).isFalse();
        assertThat(backend.verifications).containsExactly(Duration.ZERO);
        assertThat(backend.leaseRequests).as("no request about the lease, no write above all").isEmpty();
        assertThat(cluster.store.read(KEY, Duration.ofSeconds(1))).isEmpty();
        assertThat(a.events(ElectionEvent.Problem.class)).singleElement().satisfies(problem -> {
            assertThat(problem.kind()).isEqualTo(ElectionEvent.ProblemKind.CONDITIONAL_WRITES_NOT_SUPPORTED);
            assertThat(problem.message()).contains("never campaigns", "does not support conditional swap",
                    "a stale leader's renewal could overwrite");
        });
        ElectorStatus status = a.elector.status();
        assertThat(status.verification()).isEqualTo(StoreVerification.REFUSED);
        assertThat(status.verificationProblem()).get().asString().contains("does not support conditional swap");
        assertThat(status.capabilities()).get().extracting(c -> c.support(Capability.CONDITIONAL_SWAP))
                .isEqualTo(Support.NOT_SUPPORTED);
        assertThat(status.role()).isEqualTo(Role.FOLLOWER);
    }

    @Test
    void aStoreWithoutConditionalDeleteServesReleaseByPutAndRefusesReleaseByDelete() throws Exception {
        Verifying byPutStore = new Verifying(cluster);
        byPutStore.answers.add(() -> answered(Capability.CONDITIONAL_DELETE));
        Verifying byDeleteStore = new Verifying(cluster);
        byDeleteStore.answers.add(() -> answered(Capability.CONDITIONAL_DELETE));
        Cluster.Node byDelete = node("by-delete", byDeleteStore, true).start();
        Cluster.Node byPut = node("by-put", byPutStore, false).start();

        cluster.advance(TTL.multipliedBy(3));

        assertThat(byPut.elector.isLeader()).isTrue();
        assertThat(byPut.elector.status().verification()).isEqualTo(StoreVerification.VERIFIED);
        assertThat(byPut.elector.status().verificationProblem()).isEmpty();
        assertThat(byPut.elector.status().capabilities()).get().extracting(StoreCapabilities::summary)
                .isEqualTo("create VERIFIED, swap VERIFIED, delete NOT_SUPPORTED, handles as received");
        assertThat(byDelete.elector.isLeader()).isFalse();
        assertThat(byDeleteStore.leaseRequests).isEmpty();
        assertThat(byDelete.elector.status().verification()).isEqualTo(StoreVerification.REFUSED);
        assertThat(byDelete.elector.status().verificationProblem()).get().asString()
                .contains("does not support conditional delete", "releaseByDelete=false, the default");

        byPut.elector.close();
        assertThat(cluster.stored().isReleased()).as("released by a conditional PUT").isTrue();
    }

    @Test
    void anUnreachableStoreIsVerifiedAgainEveryPollWithNoOtherRequestAndCampaignedOnOnceItAnswers() {
        Verifying backend = new Verifying(cluster);
        for (int i = 0; i < 3; i++) {
            backend.answers.add(() -> CompletableFuture.failedFuture(
                    new BackendException(BackendException.Kind.UNREACHABLE, "connection refused")));
        }
        backend.answers.add(() -> answered(null));
        Cluster.Node a = node("a", backend, false).start();

        cluster.advance(POLL.multipliedBy(2).plusMillis(1));
        assertThat(a.elector.isLeader()).isFalse();
        assertThat(backend.leaseRequests).isEmpty();
        ElectorStatus verifying = a.elector.status();
        assertThat(verifying.verification()).isEqualTo(StoreVerification.VERIFYING);
        assertThat(verifying.verificationProblem()).get().asString().contains("connection refused");
        assertThat(verifying.capabilities()).isEmpty();

        cluster.advance(POLL);
        assertThat(a.elector.isLeader()).isTrue();
        assertThat(backend.verifications).containsExactly(Duration.ZERO, POLL, POLL.multipliedBy(2),
                POLL.multipliedBy(3));
        assertThat(a.events(ElectionEvent.Problem.class)).as("three failures, one problem").singleElement()
                .satisfies(p -> {
                    assertThat(p.kind()).isEqualTo(ElectionEvent.ProblemKind.BACKEND_ERROR);
                    assertThat(p.message()).contains("verify failed", "connection refused");
                });
        assertThat(a.elector.status().verification()).isEqualTo(StoreVerification.VERIFIED);
        assertThat(a.elector.status().lastError()).isEmpty();
    }

    @Test
    void aVerificationThatHangsIsAbandonedAtTheRequestTimeoutAndRetriedAfterAPoll() {
        Verifying backend = new Verifying(cluster);
        backend.answers.add(CompletableFuture::new);
        backend.answers.add(() -> answered(null));
        Cluster.Node a = node("a", backend, false).start();

        cluster.advance(RENEW.minusMillis(1));
        assertThat(a.elector.status().verification()).isEqualTo(StoreVerification.VERIFYING);
        assertThat(a.elector.status().verificationProblem()).isEmpty();
        cluster.advance(Duration.ofMillis(1));
        assertThat(a.elector.status().verificationProblem()).get().asString().contains("no answer", "within 10s");
        assertThat(backend.leaseRequests).isEmpty();

        cluster.advance(POLL);
        assertThat(backend.verifications).containsExactly(Duration.ZERO, RENEW.plus(POLL));
        assertThat(a.elector.isLeader()).isTrue();
    }

    @Test
    void aStoreThatDeniesAccessIsAskedAgainEveryPollSincePermissionsPropagateLate() {
        Verifying backend = new Verifying(cluster);
        for (int i = 0; i < 3; i++) {
            backend.answers.add(() -> CompletableFuture.failedFuture(new BackendException(
                    BackendException.Kind.ACCESS_DENIED, "403 AccessDenied: grant s3:PutObject")));
        }
        backend.answers.add(() -> answered(null));
        Cluster.Node a = node("a", backend, false).start();

        cluster.advance(POLL.multipliedBy(2).plusMillis(1));
        assertThat(backend.leaseRequests).isEmpty();
        assertThat(a.elector.status().verification()).isEqualTo(StoreVerification.VERIFYING);
        assertThat(a.elector.status().verificationProblem()).get().asString().contains("grant s3:PutObject");

        cluster.advance(POLL);
        assertThat(a.elector.isLeader()).isTrue();
        assertThat(backend.verifications).hasSize(4);
        assertThat(a.events(ElectionEvent.Problem.class)).singleElement()
                .satisfies(p -> assertThat(p.message()).contains("verify failed", "403 AccessDenied"));
    }

    @Test
    void aStoreThatDoesNotImplementConditionalRequestsIsRefusedWithoutRetries() {
        Verifying backend = new Verifying(cluster);
        backend.answers.add(() -> CompletableFuture.failedFuture(new BackendException(
                BackendException.Kind.CONDITIONAL_WRITES_NOT_SUPPORTED, "501 NotImplemented to If-None-Match")));
        Cluster.Node a = node("a", backend, false).start();

        cluster.advance(TTL.multipliedBy(5));

        assertThat(backend.verifications).hasSize(1);
        assertThat(backend.leaseRequests).isEmpty();
        assertThat(a.elector.status().verification()).isEqualTo(StoreVerification.REFUSED);
        assertThat(a.elector.status().verificationProblem()).get().asString().contains("501 NotImplemented");
        assertThat(a.elector.status().capabilities()).isEmpty();
        assertThat(a.events(ElectionEvent.Problem.class)).singleElement().satisfies(p -> {
            assertThat(p.kind()).isEqualTo(ElectionEvent.ProblemKind.CONDITIONAL_WRITES_NOT_SUPPORTED);
            assertThat(p.message()).contains("never campaigns", "501 NotImplemented");
        });
    }

    @Test
    void aClosedElectorWaitsForAHangingVerificationOnlyUpToTheRequestTimeout() {
        Verifying backend = new Verifying(cluster);
        backend.answers.add(CompletableFuture::new);
        Cluster.Node a = node("a", backend, false).start();
        cluster.time.runDue();

        CompletableFuture<Void> closed = a.elector.closeAsync();
        cluster.advance(RENEW.minusMillis(1));
        assertThat(closed).isNotDone();
        cluster.advance(Duration.ofMillis(1));
        assertThat(closed).isDone();
        assertThat(backend.leaseRequests).isEmpty();
    }

    @Test
    void aBlockingBackendIsVerifiedThroughAsyncBackendOn() throws Exception {
        StoreCapabilities custom = StoreCapabilities.builder("custom")
                .set(Capability.CONDITIONAL_DELETE, Support.NOT_SUPPORTED, "seen ignored").handleForm("bare").build();
        Backend blocking = new BlockingMemory(() -> custom);
        assertThat(AsyncBackend.on(blocking, Runnable::run).verify().toCompletableFuture().get()).isSameAs(custom);

        Elector elector = Elector.builder(blocking, KEY).owner("a").timeSource(cluster.time).scheduler(cluster.time)
                .ioExecutor(Runnable::run).eventExecutor(Runnable::run).build();
        elector.start();
        cluster.time.runDue();
        assertThat(elector.status().capabilities()).get().isSameAs(custom);
        assertThat(elector.isLeader()).isTrue();

        Backend failing = new BlockingMemory(() -> {
            throw new BackendException(BackendException.Kind.UNREACHABLE, "unreachable for the test");
        });
        assertThat(AsyncBackend.on(failing, Runnable::run).verify().toCompletableFuture())
                .failsWithin(Duration.ZERO).withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .withCauseInstanceOf(BackendException.class).withMessageContaining("unreachable for the test");
    }

    private Cluster.Node node(String owner, Verifying backend, boolean releaseByDelete) {
        Elector elector = Elector.builder(backend, KEY).owner(owner)
                .ttl(TTL).renewInterval(RENEW).pollInterval(POLL).safetyMargin(Cluster.MARGIN)
                .releaseByDelete(releaseByDelete)
                .timeSource(cluster.time).scheduler(cluster.time).eventExecutor(Runnable::run).build();
        return new Cluster.Node(elector, backend.lease);
    }

    /** Every capability verified except {@code missing} (none when null). */
    private static CompletionStage<StoreCapabilities> answered(@Nullable Capability missing) {
        StoreCapabilities.Builder builder = StoreCapabilities.builder("probed-memory");
        for (Capability capability : Capability.values()) {
            builder.set(capability, capability == missing ? Support.NOT_SUPPORTED : Support.VERIFIED,
                    capability == missing ? "the probe saw a stale request accepted" : "");
        }
        return CompletableFuture.completedFuture(builder.build());
    }

    /** A blocking in-memory store whose {@code verify()} the test gives. */
    private static final class BlockingMemory implements Backend {
        private final InMemoryBackend store = new InMemoryBackend();
        private final AsyncBackend.BackendCall<StoreCapabilities> verify;

        BlockingMemory(AsyncBackend.BackendCall<StoreCapabilities> verify) {
            this.verify = verify;
        }

        @Override
        public Optional<StoredObject> read(String key, Duration timeout) {
            return store.read(key, timeout);
        }

        @Override
        public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) {
            return store.write(key, expected, content, timeout);
        }

        @Override
        public DeleteResult delete(String key, Handle expected, Duration timeout) {
            return store.delete(key, expected, timeout);
        }

        @Override
        public StoreCapabilities verify() throws BackendException {
            return verify.run();
        }
    }

    /**
     * The cluster's store behind a {@link FaultyBackend}, with verification answers a test scripts, one per call
     * (the last one repeats), and the virtual time of every call.
     */
    private static final class Verifying implements AsyncBackend {
        final Deque<Supplier<CompletionStage<StoreCapabilities>>> answers = new ArrayDeque<>();
        final List<Duration> verifications = new CopyOnWriteArrayList<>();
        final List<String> leaseRequests = new CopyOnWriteArrayList<>();
        final FaultyBackend lease;
        private final Cluster cluster;

        Verifying(Cluster cluster) {
            this.cluster = cluster;
            this.lease = new FaultyBackend(cluster.store);
        }

        @Override
        public CompletionStage<StoreCapabilities> verify() {
            verifications.add(cluster.time.elapsed());
            return (answers.size() > 1 ? answers.removeFirst() : answers.getFirst()).get();
        }

        @Override
        public CompletionStage<Optional<StoredObject>> read(String key, Duration timeout) {
            leaseRequests.add("read");
            return lease.read(key, timeout);
        }

        @Override
        public CompletionStage<WriteResult> write(String key, Handle expected, byte[] content, Duration timeout) {
            leaseRequests.add("write");
            return lease.write(key, expected, content, timeout);
        }

        @Override
        public CompletionStage<DeleteResult> delete(String key, Handle expected, Duration timeout) {
            leaseRequests.add("delete");
            return lease.delete(key, expected, timeout);
        }

        @Override
        public String describe() {
            return "verifying(memory)";
        }
    }
}
