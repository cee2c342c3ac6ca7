package dev.hoplock.core.ownership;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.time.TimeSource;
import dev.hoplock.core.time.VirtualTime;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ActingWatch} in virtual time, over real groups and the in-memory store: listeners can follow the gate's
 * answer ({@link OwnershipGroup#isMember()}) from the events alone, an adoption that ends acting is told as a stop under
 * the view acted under before that view's {@link OwnershipEvent.MembershipChanged} (review 1.3), and a stop by the
 * wall clock is told at the instant the gate stops, not at the monotonic deadline (review 1.3, the plan).
 */
class ActingWatchTest {

    private static final Duration TTL = Duration.ofSeconds(30);
    private static final Duration STEP = Duration.ofMillis(100);

    private final VirtualTime time = new VirtualTime(Instant.parse("2026-12-01T00:00:00Z"));
    private final SteppedWall clock = new SteppedWall(time);
    private final InMemoryBackend store = new InMemoryBackend();

    private OwnershipGroup member(String id, AsyncBackend link) {
        OwnershipGroup group = OwnershipGroup.builder(link, "billing").memberId(id).address(id + ":8080")
                .owner(id + "-process").ttl(TTL).timeSource(clock).scheduler(time).eventExecutor(Runnable::run)
                .build();
        group.start();
        return group;
    }

    /** One event of a member with the gate's answer at the instant it was delivered (a direct executor: inline). */
    private record Told(OwnershipEvent event, boolean memberWhenTold, long at) {
    }

    private List<Told> record(OwnershipGroup group) {
        List<Told> told = new ArrayList<>();
        group.addListener(event -> told.add(new Told(event, group.isMember(), time.nanoTime())));
        return told;
    }

    /**
     * What a listener believes from the events alone: acting after a {@code MembershipChanged} as it says, not after
     * an {@code ActingStopped}. It must equal the gate's answer at every event.
     */
    private static void assertEventsFollowTheGate(List<Told> told) {
        boolean believed = false;
        for (Told t : told) {
            if (t.event() instanceof OwnershipEvent.MembershipChanged changed) {
                believed = changed.acting();
            } else if (t.event() instanceof OwnershipEvent.ActingStopped) {
                believed = false;
            } else {
                continue;
            }
            assertThat(believed).as("acting as the events tell it, at %s (ns %d)", t.event(), t.at())
                    .isEqualTo(t.memberWhenTold());
        }
    }

    /**
     * Review 1.3 (ordering): a new view under which this process does not act (its entry now names another process,
     * written from outside) ends acting at the adoption. The stop is told first, under the view it acted under, then the
     * new view with {@code acting} false; when it registers again, a view with {@code acting} true. Before the fix the
     * new view was told as if it acted (the listener believed it acted) and no stop was told at all (the new view has
     * no entry of this process).
     */
    @Test
    void anAdoptionThatEndsActingIsToldAsAStopUnderTheViewActedUnderBeforeTheNewView() {
        member("a", AsyncBackend.on(store, Runnable::run));
        OwnershipGroup b = member("b", AsyncBackend.on(store, Runnable::run));
        List<Told> told = record(b);
        member("c", AsyncBackend.on(store, Runnable::run));
        time.advance(Duration.ofSeconds(40));
        assertThat(b.isMember()).isTrue();
        long actedUnder = b.epoch().orElseThrow();
        int before = told.size();

        // Outside, another process's registration of member id b at b's generation (a rescheduled pod's, say).
        String key = MemberKeys.registryKey("billing");
        StoredObject stored = store.read(key, TTL).orElseThrow();
        Registry registry = Registry.decode(stored.content());
        Registry.Entry mine = java.util.Objects.requireNonNull(registry.entry("b"), "b's entry");
        Registry replaced = registry.join(new Registry.Entry("b", "b:8080", "impostor-process", mine.generation(),
                -1, TTL.toMillis()));
        assertThat(store.write(key, stored.handle(), replaced.encode(), TTL)).isInstanceOf(WriteResult.Written.class);

        for (int step = 0; step < 200 && told.subList(before, told.size()).stream()
                .noneMatch(t -> t.event() instanceof OwnershipEvent.MembershipChanged c && c.acting()); step++) {
            time.advance(STEP);
        }
        assertEventsFollowTheGate(told);
        List<OwnershipEvent> after = told.subList(before, told.size()).stream().map(Told::event)
                .filter(e -> !(e instanceof OwnershipEvent.Problem) && !(e instanceof OwnershipEvent.Settled)).toList();
        assertThat(after).as("stop, then the view it does not act under, then its own registration").hasSize(3);
        assertThat(after.get(0)).isInstanceOfSatisfying(OwnershipEvent.ActingStopped.class, stopped -> {
            assertThat(stopped.epoch()).as("the view it acted under").isEqualTo(actedUnder);
            assertThat(stopped.view().members()).extracting(Member::id).containsExactly("a", "b", "c");
        });
        assertThat(after.get(1)).isInstanceOfSatisfying(OwnershipEvent.MembershipChanged.class, changed -> {
            assertThat(changed.epoch()).isEqualTo(replaced.epoch());
            assertThat(changed.acting()).as("not acting under the impostor's registration").isFalse();
        });
        assertThat(after.get(2)).isInstanceOfSatisfying(OwnershipEvent.MembershipChanged.class, changed -> {
            assertThat(changed.epoch()).isGreaterThan(replaced.epoch());
            assertThat(changed.acting()).isTrue();
        });
        assertThat(b.isMember()).isTrue();
    }

    /**
     * Review 1.3 (the plan): the view's confirmation lapses by the wall clock before its monotonic deadline (a registry
     * read sent before a forward wall step of 10 s is answered after it; then the registry stops answering while the
     * member lease keeps renewing). The stop is told at the instant the gate stops, not at the next planned check (the
     * liveness term's end as it stood, 5 s later here, or the view's monotonic deadline), since the view's wall
     * deadline was not among the instants the check was planned at.
     */
    @Test
    void aViewLapsingByTheWallClockIsToldWhenTheGateStops() {
        Link link = new Link(AsyncBackend.on(store, Runnable::run));
        OwnershipGroup a = member("a", link);
        List<Told> told = record(a);
        time.advance(Duration.ofSeconds(40));
        assertThat(a.isMember()).isTrue();

        // The registry reads and the lease renewals both run every 10 s from the start: one late answer (5 s) moves
        // the reads between the renewals, so the view's deadlines are not the liveness term's.
        link.answerNextRegistryReadAfter(Duration.ofSeconds(5), time);
        time.advance(Duration.ofSeconds(10));
        link.holdRegistryRead = true;
        for (int step = 0; step < 200 && link.held == null; step++) {
            time.advance(STEP);
        }
        assertThat(link.held).as("a registry read in flight").isNotNull();
        // A renewal of the member lease (its term anchored before the step), then the step, then the answer.
        time.advance(Duration.ofSeconds(6));
        clock.step(Duration.ofSeconds(10));
        link.registryCut = true;
        link.release();

        int before = told.size();
        long lastActing = time.nanoTime();
        long firstNotActing = -1;
        for (int step = 0; step < 600 && firstNotActing < 0; step++) {
            time.advance(STEP);
            if (a.isMember()) {
                lastActing = time.nanoTime();
            } else {
                firstNotActing = time.nanoTime();
            }
        }
        assertThat(firstNotActing).as("the view lapsed").isPositive();
        List<Told> stops = told.subList(before, told.size()).stream()
                .filter(t -> t.event() instanceof OwnershipEvent.ActingStopped).toList();
        assertThat(stops).as("told once").hasSize(1);
        assertThat(stops.get(0).at()).as("told at the instant the gate stopped acting, not later")
                .isGreaterThan(lastActing).isLessThanOrEqualTo(firstNotActing);
        assertEventsFollowTheGate(told);
    }

    /**
     * M2 for open claims: the registry stops answering while the member lease keeps renewing, so the adopted view's
     * confirmation lapses with the liveness term still valid, and no adoption comes. A claim opened before must be told
     * at the instant the gate stops (its loss callback run once; a thread claim's thread interrupted), not only when
     * the key moves or the term ends: without it both stayed open and "valid by their owner's work" for as long as
     * the lease renewed, while another member may take the key a TTL after its new epoch (M3).
     */
    @Test
    void openClaimsAreToldWhenTheViewLapsesWhileTheMemberLeaseStillRenews() {
        Link link = new Link(AsyncBackend.on(store, Runnable::run));
        OwnershipGroup a = member("a", link);
        time.advance(Duration.ofSeconds(40));
        assertThat(a.isMember()).isTrue();
        String key = "customer-7";
        assertThat(a.isOwner(key)).isTrue();
        List<Long> told = new ArrayList<>();
        List<Object> livenessEnded = new ArrayList<>();
        a.addLivenessListener(event -> {
            if (event instanceof dev.hoplock.core.election.ElectionEvent.Lost) {
                livenessEnded.add(event);
            }
        });
        OwnershipClaim callbackClaim = a.claim(key, () -> told.add(time.nanoTime())).orElseThrow();
        OwnershipClaim threadClaim = a.claim(key, true).orElseThrow();
        // A callback that throws is logged: the other claims are told and the stop is published all the same.
        OwnershipClaim throwing = a.claim(key, () -> {
            throw new IllegalStateException("a callback that throws");
        }).orElseThrow();
        List<Told> events = record(a);
        try {
            link.registryCut = true;
            long firstNotActing = -1;
            for (int step = 0; step < 600 && firstNotActing < 0; step++) {
                time.advance(STEP);
                if (!a.isMember()) {
                    firstNotActing = time.nanoTime();
                }
            }
            assertThat(firstNotActing).as("the view lapsed").isPositive();
            assertThat(livenessEnded).as("the member lease still renews: its term did not end").isEmpty();
            assertThat(told).as("the callback claim told once, by the time the gate stopped").hasSize(1);
            assertThat(told.get(0)).isLessThanOrEqualTo(firstNotActing);
            assertThat(Thread.interrupted()).as("the thread claim's thread interrupted").isTrue();
            assertThat(callbackClaim.isValid()).isFalse();
            assertThat(threadClaim.isValid()).isFalse();
            assertThat(throwing.isValid()).isFalse();
            assertThat(events).as("the stop told despite the throwing callback")
                    .anyMatch(t -> t.event() instanceof OwnershipEvent.ActingStopped);
            time.advance(Duration.ofSeconds(5));
            assertThat(told).as("never told twice").hasSize(1);
        } finally {
            callbackClaim.close();
            threadClaim.close();
            throwing.close();
            Thread.interrupted();
        }
    }

    /** The shared virtual time, with a wall clock that can step forward. */
    static final class SteppedWall implements TimeSource {
        private final VirtualTime time;
        private volatile Duration offset = Duration.ZERO;

        SteppedWall(VirtualTime time) {
            this.time = time;
        }

        void step(Duration by) {
            offset = offset.plus(by);
        }

        @Override
        public Instant wallNow() {
            return time.wallNow().plus(offset);
        }

        @Override
        public long nanoTime() {
            return time.nanoTime();
        }
    }

    /** A link whose registry requests can be refused, and one registry read held until {@link #release()}. */
    static final class Link implements AsyncBackend {
        private final AsyncBackend inner;
        volatile boolean registryCut;
        volatile boolean holdRegistryRead;
        volatile @Nullable Runnable held;
        private volatile @Nullable Duration nextReadLatency;
        private volatile @Nullable VirtualTime latencyClock;

        Link(AsyncBackend inner) {
            this.inner = inner;
        }

        private static boolean registry(String key) {
            return key.endsWith("/registry");
        }

        private static <T> CompletionStage<T> refused() {
            return CompletableFuture.failedFuture(new BackendException(BackendException.Kind.UNREACHABLE, "cut"));
        }

        /** The next registry read is answered {@code latency} after it is sent (on {@code time}). */
        void answerNextRegistryReadAfter(Duration latency, VirtualTime time) {
            latencyClock = time;
            nextReadLatency = latency;
        }

        /** Answers the held read now, with what the store holds now. */
        void release() {
            Runnable answer = held;
            held = null;
            if (answer != null) {
                answer.run();
            }
        }

        @Override
        public CompletionStage<StoreCapabilities> verify() {
            return inner.verify();
        }

        @Override
        public CompletionStage<Optional<StoredObject>> read(String key, Duration timeout) {
            if (registry(key) && registryCut) {
                return refused();
            }
            Duration latency = nextReadLatency;
            VirtualTime scheduler = latencyClock;
            if (registry(key) && latency != null && scheduler != null) {
                nextReadLatency = null;
                CompletableFuture<Optional<StoredObject>> later = new CompletableFuture<>();
                scheduler.schedule(() -> inner.read(key, timeout).whenComplete((value, error) -> {
                    if (error != null) {
                        later.completeExceptionally(error);
                    } else {
                        later.complete(value);
                    }
                }), latency);
                return later;
            }
            if (registry(key) && holdRegistryRead) {
                holdRegistryRead = false;
                CompletableFuture<Optional<StoredObject>> later = new CompletableFuture<>();
                held = () -> inner.read(key, timeout).whenComplete((value, error) -> {
                    if (error != null) {
                        later.completeExceptionally(error);
                    } else {
                        later.complete(value);
                    }
                });
                return later;
            }
            return inner.read(key, timeout);
        }

        @Override
        public CompletionStage<WriteResult> write(String key, Handle expected, byte[] content, Duration timeout) {
            return registry(key) && registryCut ? refused() : inner.write(key, expected, content, timeout);
        }

        @Override
        public CompletionStage<DeleteResult> delete(String key, Handle expected, Duration timeout) {
            return registry(key) && registryCut ? refused() : inner.delete(key, expected, timeout);
        }

        @Override
        public String describe() {
            return "held " + inner.describe();
        }
    }
}
