package dev.hoplock.nats;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.StoreCapabilities.Support;
import dev.hoplock.core.backend.StoreNotCapableException;
import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.StoreVerification;
import dev.hoplock.nats.server.HeaderStrippingProxy;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * The conditional-write probe of {@link NatsBackend#verify()}, as the other stores run theirs: against the real server
 * a create of the existing probe key, a swap and a delete with a stale revision are refused (all three VERIFIED), and
 * through a NATS-protocol proxy that drops the expected-revision headers (all of them, only an expected 0, only a delete
 * marker's) the store is refused with {@link Kind#CONDITIONAL_WRITES_NOT_SUPPORTED} naming what was stored, the cause
 * and the fix, and an elector never leads on it.
 */
class NatsConditionalProbeTest {

    private static final String BUCKET = TestNats.newBucket("probe");

    @BeforeAll
    static void createBucket() throws Exception {
        TestNats.backend(BUCKET).close();
    }

    private static NatsBackendBuilder through(HeaderStrippingProxy proxy) {
        return NatsBackend.builder().servers(proxy.url()).bucket(BUCKET).requestTimeout(Duration.ofSeconds(5));
    }

    @Test
    void theRealServerRefusesEachStaleWriteSoAllThreeAreVerified() throws Exception {
        try (NatsBackend backend = NatsBackend.builder().servers(TestNats.server().url()).bucket(BUCKET)
                .requestTimeout(Duration.ofSeconds(5)).build()) {
            StoreCapabilities capabilities = backend.verify();

            assertThat(capabilities.support(Capability.CONDITIONAL_CREATE)).isEqualTo(Support.VERIFIED);
            assertThat(capabilities.support(Capability.CONDITIONAL_SWAP)).isEqualTo(Support.VERIFIED);
            assertThat(capabilities.support(Capability.CONDITIONAL_DELETE)).isEqualTo(Support.VERIFIED);
            assertThat(capabilities.detail(Capability.CONDITIONAL_CREATE)).contains("was refused");
        }
        // A second check (another process starting) works on the key the first left deleted.
        try (NatsBackend again = NatsBackend.builder().servers(TestNats.server().url()).bucket(BUCKET).build()) {
            assertThat(again.verify().summary()).contains("create VERIFIED, swap VERIFIED, delete VERIFIED");
        }
    }

    @Test
    void aProxyThatDropsTheExpectedRevisionIsRefusedNamingCauseAndFix() throws Exception {
        try (HeaderStrippingProxy proxy = HeaderStrippingProxy.start(TestNats.server(),
                HeaderStrippingProxy.ALL_EXPECTATIONS)) {
            StoreNotCapableException e = catchThrowableOfType(StoreNotCapableException.class,
                    () -> through(proxy).build());

            assertThat(e.kind()).isEqualTo(Kind.CONDITIONAL_WRITES_NOT_SUPPORTED);
            assertThat(e.getMessage()).contains("conditional create",
                    "Nats-Expected-Last-Subject-Sequence: 0 (create) was stored at revision",
                    "ignores the expected-revision header", "Connect hoplock directly to nats-server");
            assertThat(proxy.stripped()).isPositive();
        }
    }

    /** A store that honours a revision but reads 0 as "no condition": the old probe (a swap only) passed it. */
    @Test
    void aStoreThatIgnoresAnExpectedZeroIsRefusedForItsCreate() throws Exception {
        try (HeaderStrippingProxy proxy = HeaderStrippingProxy.start(TestNats.server(),
                HeaderStrippingProxy.EXPECTED_ZERO)) {
            BackendException e = catchThrowableOfType(BackendException.class, () -> through(proxy).build());

            assertThat(e).as("build() must refuse the store").isNotNull();
            assertThat(e.kind()).as(e.getMessage()).isEqualTo(Kind.CONDITIONAL_WRITES_NOT_SUPPORTED);
            assertThat(e.getMessage()).contains("does not support conditional create", "(create) was stored");
        }
    }

    @Test
    void aStoreThatIgnoresTheRevisionOfDeletesIsReportedSoAReleaseByDeleteIsRefused() throws Exception {
        try (HeaderStrippingProxy proxy = HeaderStrippingProxy.start(TestNats.server(),
                HeaderStrippingProxy.DELETE_EXPECTATIONS);
                NatsBackend backend = through(proxy).build()) {
            StoreCapabilities capabilities = backend.verify();

            assertThat(capabilities.support(Capability.CONDITIONAL_CREATE)).isEqualTo(Support.VERIFIED);
            assertThat(capabilities.support(Capability.CONDITIONAL_SWAP)).isEqualTo(Support.VERIFIED);
            assertThat(capabilities.support(Capability.CONDITIONAL_DELETE)).isEqualTo(Support.NOT_SUPPORTED);
            assertThat(capabilities.detail(Capability.CONDITIONAL_DELETE)).contains("a delete marker published to",
                    "was stored at revision");
            StoreNotCapableException e = catchThrowableOfType(StoreNotCapableException.class,
                    () -> capabilities.requireFor(true));
            assertThat(e.kind()).isEqualTo(Kind.CONDITIONAL_WRITES_NOT_SUPPORTED);
            assertThat(e.getMessage()).contains("conditional delete", "releaseByDelete=false");
        }
    }

    @Test
    void anElectorOverAStoreThatIgnoresTheRevisionNeverLeads() throws Exception {
        try (HeaderStrippingProxy proxy = HeaderStrippingProxy.start(TestNats.server(),
                HeaderStrippingProxy.ALL_EXPECTATIONS);
                NatsBackend backend = through(proxy).verify(false).build();
                Elector elector = Elector.builder(backend, "probe/leader").owner("probe-1")
                        .ttl(Duration.ofSeconds(2)).build()) {
            List<ElectionEvent> events = new CopyOnWriteArrayList<>();
            elector.addListener(events::add);
            elector.start();

            await("the elector refuses the store").atMost(Duration.ofSeconds(20))
                    .until(() -> elector.storeVerification() == StoreVerification.REFUSED);
            assertThat(elector.isLeader()).isFalse();
            assertThat(events).noneMatch(event -> event instanceof ElectionEvent.Acquired);
            assertThat(events).anyMatch(event -> event instanceof ElectionEvent.Problem problem
                    && problem.kind() == ElectionEvent.ProblemKind.CONDITIONAL_WRITES_NOT_SUPPORTED);
            assertThat(backend.read("probe/leader", Duration.ofSeconds(5))).as("nothing written").isEmpty();
        }
    }
}
