package dev.hoplock.junit;

import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.time.VirtualTime;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * A JUnit 5 extension that gives each test method its own {@link TestHoplock}: a fresh in-memory store, a clock, and
 * the {@link HoplockControl}. Test methods (and {@code @BeforeEach} / {@code @AfterEach} methods) declare a parameter
 * of type {@link TestHoplock}, {@link HoplockControl}, {@link InMemoryBackend} or {@link VirtualTime}; every parameter
 * of one test gets the same instance's parts.
 *
 * <pre>{@code
 * @ExtendWith(HoplockExtension.class)          // virtual time
 * @RegisterExtension static HoplockExtension hoplock = HoplockExtension.realTime(Duration.ofSeconds(10));
 * }</pre>
 *
 * <p>Guarantees: a test's {@code TestHoplock} is closed after the test (its rival members leave); nothing is shared
 * between tests. A {@link VirtualTime} parameter in a real-time extension fails the resolution and says why.
 */
public final class HoplockExtension implements ParameterResolver, AfterEachCallback {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(HoplockExtension.class);
    private static final Set<Class<?>> TYPES = Set.of(TestHoplock.class, HoplockControl.class, InMemoryBackend.class,
            VirtualTime.class);

    private final boolean virtual;
    private final Duration limit;

    /** Virtual time (the control waits up to 10 minutes of it). What {@code @ExtendWith(HoplockExtension.class)} uses. */
    public HoplockExtension() {
        this(true, Duration.ofMinutes(10));
    }

    private HoplockExtension(boolean virtual, Duration limit) {
        this.virtual = virtual;
        this.limit = limit;
    }

    /** Real time: the engines run on their own threads and the control waits up to {@code limit} for them. */
    public static HoplockExtension realTime(Duration limit) {
        return new HoplockExtension(false, limit);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return TYPES.contains(parameter.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        TestHoplock hoplock = hoplock(context);
        Class<?> type = parameter.getParameter().getType();
        if (type == TestHoplock.class) {
            return hoplock;
        }
        if (type == HoplockControl.class) {
            return hoplock.control();
        }
        if (type == InMemoryBackend.class) {
            return hoplock.store();
        }
        if (!hoplock.isVirtualTime()) {
            throw new ParameterResolutionException("a VirtualTime parameter needs virtual time, but this"
                    + " HoplockExtension runs in real time (HoplockExtension.realTime): use @ExtendWith(HoplockExtension.class)");
        }
        return hoplock.clock();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        TestHoplock hoplock = context.getStore(NAMESPACE).remove(TestHoplock.class, TestHoplock.class);
        if (hoplock != null) {
            hoplock.close();
        }
    }

    private TestHoplock hoplock(ExtensionContext context) {
        return Objects.requireNonNull(context.getStore(NAMESPACE).getOrComputeIfAbsent(TestHoplock.class,
                type -> virtual ? TestHoplock.virtualTime() : TestHoplock.realTime(limit), TestHoplock.class),
                "computed if absent");
    }
}
