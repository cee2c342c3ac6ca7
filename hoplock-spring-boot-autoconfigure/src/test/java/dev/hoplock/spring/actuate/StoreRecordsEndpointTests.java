package dev.hoplock.spring.actuate;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockEndpointAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLocksAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockOwnershipAutoConfiguration;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.ownership.HoplockOwnership;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code store:records} of the {@code hoplock} endpoint in real application contexts: for every election, every named
 * lock this instance used and the ownership group, the record read from the store (holder, generation, expiry by this
 * machine's clock); a record whose read fails or hangs shows its error while the others still show.
 */
class StoreRecordsEndpointTests {

    private static final String HANGING_KEY = "locks/hangs";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class,
                    HoplockOwnershipAutoConfiguration.class, HoplockLocksAutoConfiguration.class,
                    HoplockEndpointAutoConfiguration.class))
            .withPropertyValues("hoplock.owner=me", "hoplock.ttl=3s", "hoplock.renew=1s", "hoplock.poll=100ms",
                    "hoplock.ownership.group=billing", "hoplock.ownership.member-id=member-a",
                    "hoplock.ownership.ttl=3s", "hoplock.ownership.renew=1s", "hoplock.ownership.poll=100ms",
                    "hoplock.locks.owner=me-locks", "hoplock.locks.request-timeout=300ms",
                    "management.endpoints.web.exposure.include=hoplock");

    @Test
    void showsTheStoreRecordOfEveryElectionLockAndTheOwnershipGroup() {
        InMemoryBackend store = new InMemoryBackend();
        runner.withBean(Backend.class, () -> store).run(context -> {
            Elector elector = awaitLeader(context);
            Locks locks = context.getBean(Locks.class);
            assertThat(locks.tryAcquire("nightly", Duration.ofSeconds(30))).isInstanceOf(AcquireResult.Acquired.class);
            HoplockOwnership ownership = context.getBean(HoplockOwnership.class);
            await().atMost(Duration.ofSeconds(10)).until(ownership::isMember);
            HoplockEndpoint endpoint = context.getBean(HoplockEndpoint.class);

            Map<String, Object> all = endpoint.read();
            assertThat(all).containsKeys("default", "ownership:billing");
            assertThat(all.get(HoplockEndpoint.STORE_RECORDS)).as("the root read never reads the store")
                    .isEqualTo(HoplockEndpoint.STORE_RECORDS_HINT);
            StoreRecords records = (StoreRecords) Objects.requireNonNull(
                    endpoint.election(HoplockEndpoint.STORE_RECORDS).getBody());
            assertThat(records.backend()).isEqualTo(store.describe());
            assertThat(records.truncated()).isNull();
            assertThat(records.error()).isNull();

            StoreRecordDescriptor election = Objects.requireNonNull(records.elections().get("default"));
            assertThat(election.key()).isEqualTo(elector.settings().key());
            assertThat(election.state()).isEqualTo("held");
            assertThat(election.holder()).isEqualTo("me");
            assertThat(election.generation()).isEqualTo(elector.currentLease().orElseThrow().generation());
            assertThat(election.expiry()).startsWith("in ").endsWith("by this machine's clock");
            assertThat(election.error()).isNull();

            StoreRecordDescriptor lock = Objects.requireNonNull(records.locks().get("nightly"));
            assertThat(lock.key()).isEqualTo("locks/nightly");
            assertThat(lock.state()).isEqualTo("held");
            assertThat(lock.holder()).isEqualTo("me-locks");

            StoreRecordDescriptor registry = Objects.requireNonNull(records.ownership().get("registry"));
            assertThat(registry.key()).isEqualTo("billing/registry");
            assertThat(registry.state()).isEqualTo("present");
            StoreRecordDescriptor member = Objects.requireNonNull(records.ownership().get("member"));
            assertThat(member.key()).isEqualTo("billing/members/member-a");
            assertThat(member.state()).isEqualTo("held");
            assertThat(member.holder()).isEqualTo(ownership.processOwner());

        });
    }

    @Test
    void atMostFiftyLockRecordsShowHeldOnesFirstAndTheRestIsMarkedTruncated() {
        InMemoryBackend store = new InMemoryBackend();
        runner.withBean(Backend.class, () -> store).run(context -> {
            awaitLeader(context);
            Locks locks = context.getBean(Locks.class);
            for (int i = 0; i < StoreRecords.MAX_LOCKS + 5; i++) {
                AcquireResult taken = locks.tryAcquire("job-%03d".formatted(i), Duration.ofSeconds(30));
                ((AcquireResult.Acquired) taken).handle().release();
            }
            assertThat(locks.tryAcquire("zz-held", Duration.ofSeconds(30))).isInstanceOf(AcquireResult.Acquired.class);
            HoplockEndpoint endpoint = context.getBean(HoplockEndpoint.class);

            StoreRecords records = endpoint.storeRecords().orElseThrow();
            assertThat(records.locks()).hasSize(StoreRecords.MAX_LOCKS);
            assertThat(records.locks().keySet().iterator().next()).isEqualTo("zz-held");
            assertThat(Objects.requireNonNull(records.locks().get("zz-held")).state()).isEqualTo("held");
            assertThat(records.locks()).containsKey("job-000").doesNotContainKey("job-054");
            assertThat(records.truncated()).contains("showing 50 of 56 lock names").contains("held first");
        });
    }

    @Test
    void aRecordThatCannotBeReadShowsItsErrorAndTheOthersStillShow() {
        HangsOnOneKey store = new HangsOnOneKey();
        runner.withBean(Backend.class, () -> store).run(context -> {
            awaitLeader(context);
            Locks locks = context.getBean(Locks.class);
            locks.tryAcquire("hangs", Duration.ofSeconds(30)); // only to make the name known; its reads hang
            assertThat(locks.tryAcquire("nightly", Duration.ofSeconds(30))).isInstanceOf(AcquireResult.Acquired.class);
            store.memory.put("locks/broken", "{\"generation\":1.5}".getBytes(StandardCharsets.UTF_8));
            locks.tryAcquire("broken", Duration.ofSeconds(30));
            locks.tryAcquire("secret", Duration.ofSeconds(30));
            HoplockEndpoint endpoint = context.getBean(HoplockEndpoint.class);

            store.hang.set(true);
            try {
                StoreRecords records = endpoint.storeRecords().orElseThrow();
                StoreRecordDescriptor hanging = Objects.requireNonNull(records.locks().get("hangs"));
                assertThat(hanging.state()).isEqualTo("error");
                assertThat(hanging.error()).isEqualTo("no answer from the store within 300ms");
                StoreRecordDescriptor broken = Objects.requireNonNull(records.locks().get("broken"));
                assertThat(broken.state()).isEqualTo("corrupt");
                assertThat(broken.error()).contains("'locks/broken'").contains("generation must be a JSON integer");
                assertThat(Objects.requireNonNull(records.locks().get("nightly")).state()).isEqualTo("held");
                assertThat(Objects.requireNonNull(records.elections().get("default")).holder()).isEqualTo("me");
                StoreRecordDescriptor secret = Objects.requireNonNull(records.locks().get("secret"));
                assertThat(secret.error()).isEqualTo("the read failed: java.lang.IllegalStateException");

                StoreRecords refused = endpoint.storeRecords().orElseThrow();
                assertThat(refused.error()).as("the hanging read of the first call still holds a thread")
                        .contains("still wait for the store");
                assertThat(refused.locks()).isEmpty();
                assertThat(refused.elections()).isEmpty();
            } finally {
                store.hang.set(false);
                store.release.countDown();
            }
        });
    }

    @Test
    void withoutABackendBeanTheEndpointReadsNothingFromTheStore() {
        HoplockEndpoint endpoint = new HoplockEndpoint(new HoplockElections(Map.of(), null));
        assertThat(endpoint.storeRecords()).isEmpty();
        assertThat(endpoint.read()).doesNotContainKey(HoplockEndpoint.STORE_RECORDS);
    }

    private static Elector awaitLeader(ApplicationContext context) {
        Elector elector = context.getBean(HoplockElections.class).get("default");
        await().atMost(Duration.ofSeconds(10)).until(elector::isLeader);
        return elector;
    }

    /** A real in-memory store whose reads of {@link #HANGING_KEY} block (until released) while {@link #hang} is set. */
    static final class HangsOnOneKey implements Backend {
        final InMemoryBackend memory = new InMemoryBackend();
        final java.util.concurrent.atomic.AtomicBoolean hang = new java.util.concurrent.atomic.AtomicBoolean();
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
            if (hang.get() && key.equals(HANGING_KEY)) {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new BackendException(BackendException.Kind.TRANSIENT, "interrupted", e);
                }
            }
            if (hang.get() && key.equals("locks/secret")) {
                throw new IllegalStateException("token=s3cr3t rejected"); // a message that must never show
            }
            return memory.read(key, timeout);
        }

        @Override
        public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) {
            return memory.write(key, expected, content, timeout);
        }

        @Override
        public DeleteResult delete(String key, Handle expected, Duration timeout) {
            return memory.delete(key, expected, timeout);
        }

        @Override
        public String describe() {
            return "memory (one key hangs)";
        }
    }
}
