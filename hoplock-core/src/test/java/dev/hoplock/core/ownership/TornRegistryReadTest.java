package dev.hoplock.core.ownership;

import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.time.VirtualTime;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 19, "two acting owners of one key" over S3Mock: a registry read that the store served torn must never become
 * a view (the premise of rules M2 to M4: a view is a registry version the store held).
 *
 * <p>S3Mock 5.2.0 answers a GET with the ETag and {@code Content-Length} of the version current when the request was
 * served, but streams the body later, on another thread, from the data file that a PUT served in between replaced;
 * Tomcat cuts the body at the old length. So a member can read the ETag of version {@code n} with the first
 * {@code len(n)} bytes of version {@code n+1}. When {@code n+1} is a join (one member line appended at the end, the
 * entries being sorted by id) the cut falls exactly at a line end, and a registry format without an end marker decodes
 * it as "epoch {@code n+1} without the new member": a view the store never held. That is what {@code m-a#1} adopted in
 * the evidence ({@code ../shared/evidence/ownership-split-s3-under-load/}: epoch 5 = [m-a, m-c] while the store held
 * [m-a, m-c, m-d]). {@link TearingLink} serves exactly that answer, once, over the in-memory store.
 */
class TornRegistryReadTest {

    private static final Duration TTL = Duration.ofSeconds(30);
    private static final String GROUP = "billing";
    private final VirtualTime time = new VirtualTime(Instant.parse("2026-12-01T00:00:00Z"));
    private final RecordingStore store = new RecordingStore();
    private final Map<String, OwnershipGroup> groups = new LinkedHashMap<>();
    private final Map<String, TearingLink> links = new HashMap<>();
    private final Map<String, List<OwnershipEvent>> events = new HashMap<>();
    private final List<String> keys = new ArrayList<>();
    private final ActingOwnerCheck checked = new ActingOwnerCheck(time, groups, keys)
            .describingViews(() -> "; views: " + describeAll());

    TornRegistryReadTest() {
        for (int i = 0; i < 200; i++) {
            keys.add("customer-" + i);
        }
    }

    @Test
    void aTornRegistryReadIsNeverAdoptedSoAJoinCannotSplitAKeyBetweenTwoOwners() {
        member("a");
        member("c");
        run(Duration.ofSeconds(40));
        assertThat(group("a").members().members()).extracting(Member::id).containsExactly("a", "c");

        // The version the next GET's metadata comes from; d's join then replaces the body under it.
        link("a").tearNextChangedRead(store.current(MemberKeys.registryKey(GROUP)));
        member("d");
        run(Duration.ofSeconds(40));

        assertThat(link("a").torn).as("reads of a served torn").isEqualTo(1);
        assertThat(viewsTheStoreNeverHeld()).as("views adopted that the store never held at their epoch").isEmpty();
        assertThat(events.get("a")).as("the torn read is reported as a problem of the store's answer")
                .anySatisfy(event -> assertThat(event).isInstanceOfSatisfying(OwnershipEvent.Problem.class,
                        problem -> assertThat(problem.message()).contains("torn")));
        assertThat(group("a").members().members()).extracting(Member::id).containsExactly("a", "c", "d");
    }

    /**
     * The checker has teeth: without the end line ({@code NO_REGISTRY_END_LINE}, format 1's framing, planted in every
     * member) the same torn read becomes {@code a}'s view "epoch {@code n+1} = [a, c]", which the store never held. On
     * the code of the evidence (before the same-view rule of M9) that view was then re-confirmed by reads of the real
     * epoch, {@code a} acknowledged it, and {@code d} acted on keys {@code a} still acted on; with that rule the view
     * lasts until {@code a}'s next read, so the overlap check may or may not fire, and the view check always does.
     */
    @Test
    void theCheckerSeesTheViewTheStoreNeverHeldWhenTheEndLineIsNotChecked() {
        planted = true;
        member("a");
        member("c");
        run(Duration.ofSeconds(40));
        link("a").tearNextChangedRead(store.current(MemberKeys.registryKey(GROUP)));
        member("d");
        try {
            run(Duration.ofSeconds(40));
        } catch (AssertionError twoOwners) {
            assertThat(twoOwners).hasMessageContaining("acted on by a and d");
        }
        assertThat(link("a").torn).isEqualTo(1);
        assertThat(viewsTheStoreNeverHeld()).anySatisfy(view -> assertThat(view).startsWith("a adopted epoch")
                .endsWith("[a, c]"));
    }

    /** Every view a member announced (MembershipChanged) whose member set the store never held at that epoch. */
    private List<String> viewsTheStoreNeverHeld() {
        List<String> never = new ArrayList<>();
        for (Map.Entry<String, List<OwnershipEvent>> e : events.entrySet()) {
            for (OwnershipEvent event : e.getValue()) {
                if (event instanceof OwnershipEvent.MembershipChanged changed) {
                    List<String> members = changed.current().members().stream().map(Member::id).toList();
                    if (!store.heldAt(changed.epoch()).contains(members)) {
                        never.add(e.getKey() + " adopted epoch " + changed.epoch() + " = " + members);
                    }
                }
            }
        }
        return never;
    }

    private boolean planted;

    private OwnershipGroup group(String id) {
        return requireNonNull(groups.get(id), () -> "no member " + id);
    }

    private TearingLink link(String id) {
        return requireNonNull(links.get(id), () -> "no link of " + id);
    }

    private void member(String id) {
        TearingLink link = new TearingLink(AsyncBackend.on(store, Runnable::run));
        links.put(id, link);
        OwnershipGroup.Builder builder = OwnershipGroup.builder(link, GROUP).memberId(id).address(id + ":8080")
                .owner(id + "-process").ttl(TTL).timeSource(time).scheduler(time).eventExecutor(Runnable::run);
        if (planted) {
            OwnershipSeams.plant(builder, OwnershipSeams.PlantedDefect.NO_REGISTRY_END_LINE);
        }
        OwnershipGroup group = builder.build();
        groups.put(id, group);
        List<OwnershipEvent> seen = new ArrayList<>();
        events.put(id, seen);
        group.addListener(seen::add);
        group.start();
    }

    /** Advances virtual time in 100 ms steps, checking after each that no key has two acting owners. */
    private void run(Duration duration) {
        checked.run(duration);
    }

    private String describeAll() {
        StringBuilder out = new StringBuilder();
        groups.forEach((id, group) -> out.append('\n').append(id).append(": ").append(group.gate().describe()));
        return out.toString();
    }

    /** The in-memory store, remembering every registry version written: which member sets it held at each epoch. */
    private static final class RecordingStore implements Backend {
        private final InMemoryBackend inner = new InMemoryBackend();
        private final Map<Long, Set<List<String>>> held = new HashMap<>();

        @Override
        public synchronized Optional<StoredObject> read(String key, Duration timeout) {
            return inner.read(key, timeout);
        }

        @Override
        public synchronized WriteResult write(String key, Handle expected, byte[] content, Duration timeout) {
            WriteResult result = inner.write(key, expected, content, timeout);
            if (result instanceof WriteResult.Written && key.equals(MemberKeys.registryKey(GROUP))) {
                Registry registry = Registry.decode(content, false);
                held.computeIfAbsent(registry.epoch(), e -> new HashSet<>())
                        .add(registry.entries().stream().map(Registry.Entry::id).toList());
            }
            return result;
        }

        @Override
        public synchronized DeleteResult delete(String key, Handle expected, Duration timeout) {
            return inner.delete(key, expected, timeout);
        }

        synchronized StoredObject current(String key) {
            return inner.read(key, Duration.ofSeconds(1)).orElseThrow();
        }

        synchronized Set<List<String>> heldAt(long epoch) {
            return held.getOrDefault(epoch, Set.of());
        }

        @Override
        public String describe() {
            return "recording in-memory store";
        }
    }

    /**
     * One member's link to the store that, once armed with the version {@code stale} a GET's metadata came from,
     * answers the next read of the registry whose version is longer than {@code stale} as S3Mock does: the handle of
     * {@code stale} with the first {@code stale.size()} bytes of the current version.
     */
    private static final class TearingLink implements AsyncBackend {
        private final AsyncBackend inner;
        private @Nullable StoredObject stale;
        int torn;

        TearingLink(AsyncBackend inner) {
            this.inner = inner;
        }

        void tearNextChangedRead(StoredObject stale) {
            this.stale = stale;
        }

        @Override
        public CompletionStage<Optional<StoredObject>> read(String key, Duration timeout) {
            return inner.read(key, timeout).thenApply(answer -> {
                StoredObject from = stale;
                if (from == null || answer.isEmpty() || !key.equals(MemberKeys.registryKey(GROUP))
                        || answer.get().size() <= from.size()) {
                    return answer;
                }
                stale = null;
                torn++;
                return Optional.of(new StoredObject(Arrays.copyOf(answer.get().content(), from.size()),
                        from.handle()));
            });
        }

        @Override
        public CompletionStage<WriteResult> write(String key, Handle expected, byte[] content, Duration timeout) {
            return inner.write(key, expected, content, timeout);
        }

        @Override
        public CompletionStage<DeleteResult> delete(String key, Handle expected, Duration timeout) {
            return inner.delete(key, expected, timeout);
        }

        @Override
        public String describe() {
            return "link that tears one registry read as S3Mock does";
        }
    }
}
