package dev.hoplock.spring.actuate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.hoplock.core.lock.AcquireResult;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.core.time.HumanDurations;
import dev.hoplock.spring.autoconfigure.HoplockAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockEndpointAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockHealthAutoConfiguration;
import dev.hoplock.spring.autoconfigure.HoplockLocksAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 23, fix 5: every duration the {@code hoplock} endpoint (all its paths) and the health details show is in the
 * one human form of {@link HumanDurations}, rendered as JSON the way Actuator renders it (ISO-8601 dates and
 * durations, not numbers), never {@code PT4.464S}.
 */
class ActuatorDurationsTests {

    /** The forms of {@link HumanDurations}: 250ms, 4.464s, 30s, 2m30s, 1h5m. */
    private static final Pattern HUMAN = Pattern.compile("-?(\\d+ms|\\d+(\\.\\d{1,3})?s|(\\d+h)?(\\d+m)?(\\d+s)?)");
    /** Any ISO-8601 duration in JSON text. */
    private static final Pattern ISO_DURATION = Pattern.compile("\"-?P(\\d+D)?T[\\d.HMS]+\"");

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(HoplockAutoConfiguration.class,
                    HoplockLocksAutoConfiguration.class, HoplockHealthAutoConfiguration.class,
                    HoplockEndpointAutoConfiguration.class))
            .withPropertyValues("hoplock.backend=memory", "hoplock.owner=me", "hoplock.ttl=3s",
                    "hoplock.renew=1s", "hoplock.poll=100ms", "management.endpoints.web.exposure.include=hoplock");

    /** Jackson as Boot's Actuator configures it: java.time as ISO-8601 text (the form issue 23 saw). */
    private final ObjectMapper json = new ObjectMapper().findAndRegisterModules()
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS);

    @Test
    void noTypeTheEndpointOrHealthShowsHasADurationComponent() {
        Set<Class<?>> seen = new HashSet<>();
        Deque<Class<?>> todo = new ArrayDeque<>(List.of(ElectionDescriptor.class, HeldLockDescriptor.class,
                HoplockEndpoint.HeldLocks.class, OwnershipDescriptor.class, HoplockEndpoint.NoSuchElection.class,
                HoplockEndpoint.StepDownResult.class));
        while (!todo.isEmpty()) {
            Class<?> type = todo.pop();
            if (!seen.add(type) || !type.isRecord()) {
                continue;
            }
            for (RecordComponent component : type.getRecordComponents()) {
                assertThat(component.getType()).as(type.getSimpleName() + "." + component.getName())
                        .isNotEqualTo(Duration.class);
                todo.add(component.getType());
                Type generic = component.getGenericType();
                if (generic instanceof ParameterizedType parameterized) {
                    for (Type argument : parameterized.getActualTypeArguments()) {
                        if (argument instanceof Class<?> c) {
                            assertThat(c).as(type.getSimpleName() + "." + component.getName())
                                    .isNotEqualTo(Duration.class);
                            todo.add(c);
                        }
                    }
                }
            }
        }
        assertThat(seen).contains(HoplockEndpoint.HeldLocks.class, HeldLockDescriptor.class,
                OwnershipDescriptor.MemberDescriptor.class);
    }

    @Test
    void heldLocksShowTimeLeftInTheHumanForm() {
        runner.run(context -> {
            Locks locks = context.getBean(Locks.class);
            assertThat(locks.tryAcquire("report", Duration.ofSeconds(30))).isInstanceOf(AcquireResult.Acquired.class);
            String body = json.writeValueAsString(context.getBean(HoplockEndpoint.class).locks("locks", "held")
                    .getBody());
            assertThat(body).doesNotContainPattern(ISO_DURATION).contains("\"timeLeft\"");
            assertHuman(body, "timeLeft");
        });
    }

    @Test
    void electionsAndOneElectionShowDurationsInTheHumanForm() {
        runner.run(context -> {
            awaitLeader(context);
            HoplockEndpoint endpoint = context.getBean(HoplockEndpoint.class);
            for (Object answer : List.of(endpoint.read(), Objects.requireNonNull(endpoint.election("default")
                    .getBody(), "a body"))) {
                String body = json.writeValueAsString(answer);
                assertThat(body).doesNotContainPattern(ISO_DURATION);
                assertHuman(body, "timeLeft", "sinceStoreAnswered", "ttl", "renew", "poll");
                assertThat(body).contains("\"ttl\":\"3s\"", "\"renew\":\"1s\"", "\"poll\":\"100ms\"");
            }
        });
    }

    @Test
    void healthDetailsShowDurationsInTheHumanForm() {
        runner.run(context -> {
            awaitLeader(context);
            HealthIndicator indicator = (HealthIndicator) Objects.requireNonNull(context.getBean("hoplockHealthContributor",
                    CompositeHealthContributor.class).getContributor("default"), "the election's indicator");
            Map<String, Object> details = Objects.requireNonNull(indicator.health(), "health").getDetails();
            String body = json.writeValueAsString(details);
            assertThat(body).doesNotContainPattern(ISO_DURATION);
            assertHuman(body, "timeLeft", "sinceStoreAnswered");
        });
    }

    private static void awaitLeader(AssertableApplicationContext context) {
        await().atMost(Duration.ofSeconds(10)).until(() -> context.getBean(
                dev.hoplock.spring.leader.HoplockElections.class).find("default").orElseThrow().isLeader());
    }

    /** Every field named in {@code fields} occurs in {@code body} with a string value in the human form. */
    private static void assertHuman(String body, String... fields) {
        for (String field : fields) {
            Matcher values = Pattern.compile("\"" + field + "\":\"([^\"]*)\"").matcher(body);
            assertThat(values.find()).as(field + " in " + body).isTrue();
            do {
                assertThat(values.group(1)).as(field).matches(HUMAN);
            } while (values.find());
        }
    }
}
