package dev.hoplock.core.backend;

import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.StoreCapabilities.Support;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Each consumer refuses only what it needs: the decision of {@link StoreCapabilities#requireFor(boolean)}. */
class StoreCapabilitiesTest {

    private static final String RGW_DELETE = "on the probe key k a DELETE with If-Match and a stale ETag answered"
            + " DELETED";

    @Test
    void aBackendThatChecksNothingReportsEveryCapabilityAssumedAndServesEveryElector() throws Exception {
        StoreCapabilities assumed = new InMemoryBackend().verify();

        assertThat(assumed.store()).isEqualTo(new InMemoryBackend().describe());
        assertThat(assumed.support()).containsOnly(Map.entry(Capability.CONDITIONAL_CREATE, Support.ASSUMED),
                Map.entry(Capability.CONDITIONAL_SWAP, Support.ASSUMED),
                Map.entry(Capability.CONDITIONAL_DELETE, Support.ASSUMED));
        assertThat(assumed.handleForm()).isEqualTo(StoreCapabilities.HANDLES_AS_RECEIVED);
        assertThatCode(() -> assumed.requireFor(true)).doesNotThrowAnyException();
        assertThatCode(() -> assumed.requireFor(false)).doesNotThrowAnyException();
    }

    @Test
    void aStoreWithoutConditionalDeleteServesAnElectorThatReleasesByPut() {
        StoreCapabilities rgw = withoutConditionalDelete();

        assertThatCode(() -> rgw.requireFor(false)).doesNotThrowAnyException();
        assertThat(rgw.has(Capability.CONDITIONAL_DELETE)).isFalse();
        assertThat(rgw.summary()).isEqualTo("create VERIFIED, swap VERIFIED, delete NOT_SUPPORTED, handles bare");
    }

    @Test
    void aReportedDurabilityIsInTheSummaryAndAnUnreportedOneIsAbsent() throws Exception {
        StoreCapabilities redis = StoreCapabilities.builder("redis://127.0.0.1:6379/0")
                .durability(Durability.LOST_ON_FAILOVER, "appendonly yes, appendfsync always, 1 replica").build();

        assertThat(redis.durability()).isEqualTo(Durability.LOST_ON_FAILOVER);
        assertThat(redis.summary()).endsWith(", acknowledged writes lost on failover (appendonly yes, appendfsync"
                + " always, 1 replica)");
        assertThat(new InMemoryBackend().verify().durability()).isNull();
        assertThat(new InMemoryBackend().verify().summary()).doesNotContain("acknowledged");
        assertThat(Durability.KEPT.atLeast(Durability.LOST_ON_FAILOVER)).isTrue();
        assertThat(Durability.LOST_ON_RESTART.atLeast(Durability.LOST_ON_FAILOVER)).isFalse();
    }

    @Test
    void readsThatMayLagRefuseOnlyAConsumerThatNeedsCurrentReadsWithTheStoresReasonAndFix() throws Exception {
        StoreCapabilities lagging = StoreCapabilities.builder("nats://hoplock (3 replicas)")
                .reads(StoreCapabilities.Reads.MAY_LAG, "a deposed stream leader may answer from behind; use a"
                        + " one-replica bucket").build();
        lagging.requireFor(false);
        lagging.requireFor(true);
        StoreNotCapableException e = catchThrowableOfType(StoreNotCapableException.class,
                () -> lagging.requireCurrentReads("Ownership acts on what it reads"));
        assertThat(e).isNotNull();
        assertThat(e.missing()).as("no conditional request is missing").isNull();
        assertThat(e.capabilities()).isSameAs(lagging);
        assertThat(e.isRetryable()).isFalse();
        assertThat(e.getMessage()).contains("hoplock cannot use nats://hoplock (3 replicas) here",
                "reads may miss acknowledged writes", "use a one-replica bucket", "Ownership acts on what it reads");
        assertThat(lagging.summary()).contains("reads may lag (a deposed stream leader");
        StoreCapabilities current = new InMemoryBackend().verify();
        assertThat(current.reads()).isEqualTo(StoreCapabilities.Reads.CURRENT);
        current.requireCurrentReads("needed");
        assertThat(current.summary()).doesNotContain("reads");
    }

    @Test
    void releaseByDeleteIsRefusedOnAStoreWithoutConditionalDeleteWithTheReasonAndTheFix() {
        StoreCapabilities rgw = withoutConditionalDelete();

        StoreNotCapableException e = catchThrowableOfType(StoreNotCapableException.class, () -> rgw.requireFor(true));

        assertThat(e).isNotNull();
        assertThat(e.missing()).isEqualTo(Capability.CONDITIONAL_DELETE);
        assertThat(e.capabilities()).isSameAs(rgw);
        assertThat(e.kind()).isEqualTo(BackendException.Kind.CONDITIONAL_WRITES_NOT_SUPPORTED);
        assertThat(e.isRetryable()).isFalse();
        assertThat(e.getMessage()).contains("hoplock cannot use s3://b at http://127.0.0.1:7480 here",
                "does not support conditional delete", RGW_DELETE, "releaseByDelete=true",
                "a stale leader's release could remove a newer leader's lease", "releaseByDelete=false, the default");
    }

    @Test
    void everyElectorIsRefusedWithoutConditionalCreateOrSwap() {
        StoreCapabilities noSwap = StoreCapabilities.builder("store")
                .set(Capability.CONDITIONAL_CREATE, Support.VERIFIED, "")
                .set(Capability.CONDITIONAL_SWAP, Support.NOT_SUPPORTED, "it accepted a PUT with a stale ETag")
                .set(Capability.CONDITIONAL_DELETE, Support.UNKNOWN, "")
                .build();
        StoreCapabilities noCreate = StoreCapabilities.builder("store")
                .set(Capability.CONDITIONAL_CREATE, Support.NOT_SUPPORTED, "")
                .build();

        for (boolean releaseByDelete : new boolean[] {false, true}) {
            assertThatThrownBy(() -> noSwap.requireFor(releaseByDelete)).isInstanceOf(StoreNotCapableException.class)
                    .hasMessageContaining("does not support conditional swap")
                    .hasMessageContaining("it accepted a PUT with a stale ETag")
                    .hasMessageContaining("a stale leader's renewal could overwrite");
            assertThatThrownBy(() -> noCreate.requireFor(releaseByDelete))
                    .isInstanceOf(StoreNotCapableException.class)
                    .hasMessageContaining("does not support conditional create")
                    .hasMessageContaining("two candidates could both create the lease");
        }
    }

    @Test
    void anUnknownCapabilityIsNotRelied() {
        StoreCapabilities unknownDelete = StoreCapabilities.builder("store")
                .set(Capability.CONDITIONAL_DELETE, Support.UNKNOWN, "").build();

        assertThatThrownBy(() -> unknownDelete.requireFor(true)).isInstanceOf(StoreNotCapableException.class)
                .hasMessage("hoplock cannot use store here: it could not be shown to support conditional delete"
                        + " (delete only if the stored version is the expected one). Release by DELETE"
                        + " (releaseByDelete=true) needs it: a stale leader's release could remove a newer leader's"
                        + " lease, and a third candidate could then lead beside the newer leader. Release by writing an"
                        + " expired record (releaseByDelete=false, the default) sends no DELETE and is safe on this"
                        + " store.");
    }

    @Test
    void theReportIsImmutableAndComplete() {
        Map<Capability, Support> support = new EnumMap<>(Capability.class);
        for (Capability capability : Capability.values()) {
            support.put(capability, Support.VERIFIED);
        }
        StoreCapabilities report = new StoreCapabilities("store", support, Map.of(), "as received");
        support.put(Capability.CONDITIONAL_DELETE, Support.NOT_SUPPORTED);

        assertThat(report.support(Capability.CONDITIONAL_DELETE)).isEqualTo(Support.VERIFIED);
        assertThat(report.detail(Capability.CONDITIONAL_DELETE)).isEmpty();
        assertThatThrownBy(() -> report.support().put(Capability.CONDITIONAL_CREATE, Support.UNKNOWN))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> new StoreCapabilities("store", Map.of(), Map.of(), "as received"))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("CONDITIONAL_CREATE");
    }

    private static StoreCapabilities withoutConditionalDelete() {
        return StoreCapabilities.builder("s3://b at http://127.0.0.1:7480")
                .set(Capability.CONDITIONAL_CREATE, Support.VERIFIED, "")
                .set(Capability.CONDITIONAL_SWAP, Support.VERIFIED, "")
                .set(Capability.CONDITIONAL_DELETE, Support.NOT_SUPPORTED, RGW_DELETE)
                .handleForm("bare")
                .build();
    }
}
