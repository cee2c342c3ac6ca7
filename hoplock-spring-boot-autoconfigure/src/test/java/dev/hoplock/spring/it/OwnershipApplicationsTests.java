package dev.hoplock.spring.it;

import dev.hoplock.core.ownership.Member;
import dev.hoplock.core.ownership.MembershipView;
import dev.hoplock.core.ownership.Rendezvous;
import dev.hoplock.spring.actuate.HoplockEndpoint;
import dev.hoplock.spring.actuate.OwnershipDescriptor;
import dev.hoplock.spring.it.KeyedJobApplication.Run;
import dev.hoplock.spring.leader.MeteredBackend;
import dev.hoplock.spring.ownership.OwnershipMeterBinder;
import dev.hoplock.spring.ownership.HoplockOwnership;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three whole applications in one JVM form one ownership group over the filesystem store: each key's
 * {@code @LeaderOnly(key = "#orgId")} method runs only on its owner, with the key's token; closing one application
 * moves exactly its keys to the two others, which receive {@code OwnershipChangedEvent}s naming them; the meters, the
 * health contributor and the {@code hoplock} endpoint show the members.
 */
class OwnershipApplicationsTests {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path directory;

    private final List<ConfigurableApplicationContext> started = new ArrayList<>();

    @BeforeEach
    void reset() {
        KeyedJobApplication.reset();
    }

    @AfterEach
    void closeAll() {
        started.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void eachKeyRunsOnlyOnItsOwnerAndAClosedApplicationsKeysMove() {
        ConfigurableApplicationContext a = start("member-a");
        ConfigurableApplicationContext b = start("member-b");
        ConfigurableApplicationContext c = start("member-c");
        List<HoplockOwnership> all = List.of(ownership(a), ownership(b), ownership(c));
        await().atMost(WAIT).until(() -> all.stream().allMatch(o -> o.isMember() && o.members().size() == 3));
        MembershipView three = MembershipView.of(0, all.get(0).members());
        // Every key runs, once all three members act, on its owner by rendezvous over the three.
        long settled = System.nanoTime();
        await().atMost(WAIT).until(() -> keysRunSince(settled).equals(new TreeSet<>(KeyedJobApplication.KEYS)));
        for (Run run : runsSince(settled)) {
            assertThat(run.member()).as("owner of %s", run.key())
                    .isEqualTo(Rendezvous.owner(run.key(), three).orElseThrow().id());
        }
        Set<String> ownedByC = KeyedJobApplication.KEYS.stream()
                .filter(key -> Rendezvous.isOwner(key, "member-c", three)).collect(Collectors.toCollection(TreeSet::new));
        assertThat(ownedByC).as("c owns some of the 40 keys").isNotEmpty();
        assertThat(ownership(a).token("org-0").isPresent() || ownership(b).token("org-0").isPresent()
                || ownership(c).token("org-0").isPresent()).isTrue();

        // The endpoint and the health show the three members.
        OwnershipDescriptor shown = (OwnershipDescriptor) endpoint(a).read().get("ownership:billing");
        assertThat(shown.members()).extracting(OwnershipDescriptor.MemberDescriptor::id)
                .containsExactly("member-a", "member-b", "member-c");
        assertThat(shown.members()).filteredOn(OwnershipDescriptor.MemberDescriptor::self)
                .singleElement().satisfies(self -> assertThat(self.state()).isEqualTo("member"));
        assertThat(shown.state()).isEqualTo("member");
        Health health = health(b);
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("self", "member-b").containsEntry("state", "member");
        assertThat(gauge(a, OwnershipMeterBinder.MEMBERS)).isEqualTo(3.0);
        // The group's store requests (membership lease and registry) are counted with the elections' (issue 23).
        assertThat(a.getBean(MeterRegistry.class).get(MeteredBackend.METER).tag("primitive", "ownership")
                .tag("name", "billing").tag("operation", "write").tag("outcome", "written").timer().count())
                .isPositive();

        // Closing c: its keys, and only those, move to a and b.
        // Events reach the bean on the group's event thread, after the view the awaits above saw: the change to three
        // members may not be counted yet. A change is counted before the Spring event of it is published.
        await().atMost(WAIT).until(() -> KeyedJobApplication.EVENTS.stream()
                .anyMatch(e -> e.member().equals("member-a") && e.event().members().size() == 3));
        double movedBeforeA = counter(a, OwnershipMeterBinder.KEYS_MOVED);
        c.close();
        await().atMost(WAIT).until(() -> ownership(a).members().size() == 2 && ownership(b).members().size() == 2);
        MembershipView two = MembershipView.of(0, ownership(a).members());
        assertThat(two.members()).extracting(Member::id).containsExactly("member-a", "member-b");
        long afterLeave = System.nanoTime();
        await().atMost(WAIT).until(() -> keysRunSince(afterLeave).equals(new TreeSet<>(KeyedJobApplication.KEYS)));
        for (Run run : runsSince(afterLeave)) {
            assertThat(run.member()).as("owner of %s", run.key())
                    .isEqualTo(Rendezvous.owner(run.key(), two).orElseThrow().id());
        }
        for (String key : KeyedJobApplication.KEYS) {
            if (!ownedByC.contains(key)) {
                assertThat(Rendezvous.owner(key, two)).as("a key c did not own stays").isEqualTo(
                        Rendezvous.owner(key, three));
            }
        }

        // The events of a and b name c as gone and, between them, gain exactly c's keys.
        await().atMost(WAIT).until(() -> leftEvents("member-a") && leftEvents("member-b"));
        Set<String> gained = new TreeSet<>();
        KeyedJobApplication.EVENTS.stream()
                .filter(e -> !e.member().equals("member-c"))
                .filter(e -> e.event().left().stream().anyMatch(m -> m.id().equals("member-c")))
                .forEach(e -> {
                    assertThat(e.event().lost()).as("a leaving member takes no key from %s", e.member()).isEmpty();
                    gained.addAll(e.event().gained());
                });
        assertThat(gained).isEqualTo(ownedByC);

        // Meters: two members, a's moved keys counted, the two shares of the keys seen add up to one.
        assertThat(gauge(a, OwnershipMeterBinder.MEMBERS)).isEqualTo(2.0);
        assertThat(counter(a, OwnershipMeterBinder.MEMBERSHIP_CHANGES)).isGreaterThanOrEqualTo(1.0);
        assertThat(counter(a, OwnershipMeterBinder.KEYS_MOVED) - movedBeforeA).isEqualTo(ownedByC.size());
        assertThat(gauge(a, OwnershipMeterBinder.SHARE) + gauge(b, OwnershipMeterBinder.SHARE))
                .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));

        assertNoKeyRanOnTwoMembersAtOnceAndTokensRise();
    }

    private static boolean leftEvents(String member) {
        return KeyedJobApplication.EVENTS.stream().anyMatch(e -> e.member().equals(member)
                && e.event().left().stream().anyMatch(m -> m.id().equals("member-c")));
    }

    /** Per key: runs by different members never overlap, and a later member's token is higher. */
    private static void assertNoKeyRanOnTwoMembersAtOnceAndTokensRise() {
        Map<String, List<Run>> byKey = KeyedJobApplication.RUNS.stream()
                .collect(Collectors.groupingBy(Run::key));
        byKey.forEach((key, runs) -> {
            List<Run> sorted = runs.stream().sorted(Comparator.comparingLong(Run::startNanos)).toList();
            for (int i = 1; i < sorted.size(); i++) {
                Run previous = sorted.get(i - 1);
                Run next = sorted.get(i);
                if (!previous.member().equals(next.member())) {
                    assertThat(next.startNanos()).as("%s started before %s ended", next, previous)
                            .isGreaterThanOrEqualTo(previous.endNanos());
                    assertThat(next.token()).as("token of %s after %s", next, previous)
                            .isGreaterThan(previous.token());
                } else {
                    assertThat(next.token()).as("token of %s after %s", next, previous)
                            .isGreaterThanOrEqualTo(previous.token());
                }
            }
        });
    }

    /**
     * The runs of the sweeps that started at {@code nanos} or later: their gates decided after {@code nanos}. (A run's
     * own start is no such bound: a sweep thread held up between the gate and the method body records a start after
     * {@code nanos} for a call the gate let through under the earlier view.)
     */
    private static List<Run> runsSince(long nanos) {
        return KeyedJobApplication.RUNS.stream().filter(run -> run.sweepStartNanos() >= nanos).toList();
    }

    private static Set<String> keysRunSince(long nanos) {
        return runsSince(nanos).stream().map(Run::key).collect(Collectors.toCollection(TreeSet::new));
    }

    private ConfigurableApplicationContext start(String member) {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(KeyedJobApplication.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off",
                        "hoplock.backend=filesystem", "hoplock.filesystem.directory=" + directory,
                        "hoplock.owner=" + member, "hoplock.ttl=1500ms", "hoplock.renew=500ms", "hoplock.poll=100ms",
                        "hoplock.ownership.group=billing", "hoplock.ownership.member-id=" + member,
                        "hoplock.ownership.ttl=1500ms", "hoplock.ownership.renew=500ms",
                        "hoplock.ownership.poll=100ms", "hoplock.ownership.release-timeout=1s",
                        "management.endpoints.web.exposure.include=hoplock",
                        "logging.level.root=WARN", "logging.level.dev.hoplock=INFO")
                .run();
        started.add(context);
        return context;
    }

    private static HoplockOwnership ownership(ConfigurableApplicationContext context) {
        return context.getBean(HoplockOwnership.class);
    }

    private static HoplockEndpoint endpoint(ConfigurableApplicationContext context) {
        return context.getBean(HoplockEndpoint.class);
    }

    private static double gauge(ConfigurableApplicationContext context, String name) {
        return context.getBean(MeterRegistry.class).get(name).tag("group", "billing").gauge().value();
    }

    private static double counter(ConfigurableApplicationContext context, String name) {
        return context.getBean(MeterRegistry.class).get(name).tag("group", "billing").functionCounter().count();
    }

    private static Health health(ConfigurableApplicationContext context) {
        CompositeHealthContributor composite = context.getBean("hoplockHealthContributor",
                CompositeHealthContributor.class);
        return ((HealthIndicator) composite.getContributor("ownership-billing")).health();
    }
}
