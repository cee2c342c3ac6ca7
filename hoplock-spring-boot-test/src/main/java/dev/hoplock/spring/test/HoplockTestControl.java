package dev.hoplock.spring.test;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.core.time.TimeSource;
import dev.hoplock.junit.HoplockControl;
import dev.hoplock.junit.Waits;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.ownership.HoplockOwnership;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;

/**
 * The test control of a Spring test context with {@link AutoConfigureHoplock}: makes this instance leader or
 * follower of an election, lets another instance hold a named lock or frees it, makes this instance own or lose keys
 * of its ownership group, and tells which gated methods ran ({@link #calls()}). Inject it into the test.
 *
 * <p>Guarantees: every change goes through the context's in-memory store and its real engines (the electors of
 * {@code HoplockElections}, the {@code Locks} bean, the {@code HoplockOwnership} group), as {@link HoplockControl}
 * describes: a rival's record or a rival member, never a record written for this instance. Each method returns once
 * the engine reports the new state ({@code isLeader}, {@code isOwner}), or throws an {@link AssertionError} after the
 * annotation's timeout naming what it waited for. A lock change needs no wait: the next {@code @WithLock} call sees it.
 * The rivals leave when the context closes. It refuses to work, saying why, when the context's store is not the
 * in-memory one (an application {@code Backend} bean wins over {@code hoplock.backend}) or hoplock is disabled.
 *
 * <p>With {@code @AutoConfigureHoplock(time = VIRTUAL)} the engines run on the context's virtual clock: the methods
 * above wait by advancing it (up to 10 minutes of it, or the annotation's timeout if longer) and {@link #advance}
 * moves it, so a test lets a lease, a lock or a member's TTL run out in no real time. The clock is driven from one
 * thread at a time: the test's.
 */
public final class HoplockTestControl implements BeanFactoryAware, EnvironmentAware, DisposableBean {

    /** The least a control waits in virtual time (the application's TTL may be long: a takeover takes two). */
    private static final Duration VIRTUAL_LIMIT = Duration.ofMinutes(10);

    private final Duration timeout;
    private final @Nullable VirtualTimeDriver virtualTime;
    private @Nullable BeanFactory beans;
    private @Nullable Environment environment;
    private @Nullable HoplockControl control;

    HoplockTestControl(Duration timeout, @Nullable VirtualTimeDriver virtualTime) {
        this.timeout = timeout;
        this.virtualTime = virtualTime;
        if (virtualTime != null) {
            // The rivals leave before the engines close (and stop renewing), when the context stops or pauses.
            virtualTime.onStop(this::closeControl);
        }
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beans = beanFactory;
    }

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    /** Which gated methods ran and which were skipped. */
    public GateCalls calls() {
        return beans().getBean(GateCalls.class);
    }

    /** The context's in-memory store. */
    public InMemoryBackend store() {
        return control().store();
    }

    // ------------------------------------------------------------------ elections

    /** Makes this instance the leader of the default election; returns once it leads. */
    public void makeLeader() {
        drive(() -> control().makeLeader(elections().getDefault()));
    }

    /** Makes this instance the leader of {@code election} (a name of {@code hoplock.elections}); returns once it leads. */
    public void makeLeader(String election) {
        drive(() -> control().makeLeader(elections().get(election)));
    }

    /** Makes another instance lead the default election; returns once this instance follows it. */
    public void makeFollower() {
        drive(() -> control().makeFollower(elections().getDefault()));
    }

    /** Makes another instance lead {@code election}; returns once this instance follows it. */
    public void makeFollower(String election) {
        drive(() -> control().makeFollower(elections().get(election)));
    }

    /**
     * Makes the rival leading the default election crash (it stops renewing, as a killed leader); returns once this
     * instance took over, which its takeover rule allows only after a TTL of observation.
     */
    public void crashRival() {
        drive(() -> control().crashRival(elections().getDefault()));
    }

    /** {@link #crashRival()} for {@code election}. */
    public void crashRival(String election) {
        drive(() -> control().crashRival(elections().get(election)));
    }

    /** Whether this instance leads the default election now. */
    public boolean isLeader() {
        return elections().getDefault().isLeader();
    }

    // ------------------------------------------------------------------ named locks

    /** Lets another instance hold lock {@code name} (as {@code @WithLock(name = ...)} names it): calls skip it. */
    public void holdLockElsewhere(String name) {
        drive(() -> control().holdLockElsewhere(name));
    }

    /** Frees lock {@code name} if another instance holds it: the next call takes it. */
    public void freeLock(String name) {
        drive(() -> control().freeLock(name));
    }

    // ------------------------------------------------------------------ ownership

    /** Makes this instance lose {@code key} of its ownership group; returns once it no longer owns it. */
    public void loseKey(String key) {
        drive(() -> control().loseKey(group(), key));
    }

    /** Makes this instance lose every key of {@code lost} and own every key of {@code kept}; see {@link HoplockControl#loseKeys}. */
    public void loseKeys(Collection<String> lost, Collection<String> kept) {
        drive(() -> control().loseKeys(group(), lost, kept));
    }

    /** Makes this instance own every key again (the rival member leaves); returns once it owns {@code keys} too. */
    public void ownAllKeys(String... keys) {
        drive(() -> control().ownAllKeys(group(), keys));
    }

    /** Whether this instance owns {@code key} now. */
    public boolean isOwner(String key) {
        return group().isOwner(key);
    }

    // ------------------------------------------------------------------ virtual time

    /** Whether the context's engines run on virtual time ({@code @AutoConfigureHoplock(time = VIRTUAL)}). */
    public boolean isVirtualTime() {
        return virtualTime != null;
    }

    /**
     * Moves the virtual time of the context's engines forward by {@code duration}, running every timer that falls due
     * (renewals, expiries, polls, the group's member checks), with their store requests and events, on this thread;
     * returns when done. Spring's {@code @Scheduled} methods do not follow it: call the gated method yourself.
     *
     * @throws IllegalStateException in real time (without {@code time = VIRTUAL})
     */
    public void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("virtual time moves forward only, not by " + duration);
        }
        VirtualTimeDriver driver = driver();
        driver.drive(() -> driver.time().advance(duration));
    }

    /** The virtual time elapsed since the context's clock started ({@code 2026-01-01T00:00:00Z} on its wall clock). */
    public Duration elapsed() {
        return driver().time().elapsed();
    }

    /** The wall clock the context's engines read: virtual time, or the system's in real time. */
    public Instant wallNow() {
        VirtualTimeDriver driver = virtualTime;
        return driver == null ? Instant.now() : driver.time().wallNow();
    }

    @Override
    public void destroy() {
        drive(this::closeControl);
    }

    private synchronized void closeControl() {
        HoplockControl started = control;
        control = null;
        if (started != null) {
            started.close();
        }
    }

    private void drive(Runnable work) {
        VirtualTimeDriver driver = virtualTime;
        if (driver == null) {
            work.run();
        } else {
            driver.drive(work);
        }
    }

    private VirtualTimeDriver driver() {
        VirtualTimeDriver driver = virtualTime;
        if (driver == null) {
            throw new IllegalStateException("@AutoConfigureHoplock: this context runs on real time, so there is no"
                    + " virtual clock to advance: use @AutoConfigureHoplock(time = AutoConfigureHoplock.Time.VIRTUAL)");
        }
        return driver;
    }

    private synchronized HoplockControl control() {
        HoplockControl known = control;
        if (known != null) {
            return known;
        }
        Backend backend = beans().getBeanProvider(Backend.class).getIfAvailable();
        if (backend == null) {
            throw new IllegalStateException("@AutoConfigureHoplock: this context has no hoplock store: hoplock is"
                    + " disabled (hoplock.enabled=false) or not on the class path. Remove hoplock.enabled=false from"
                    + " the test's properties, or add the hoplock starter.");
        }
        if (!(backend instanceof InMemoryBackend memory)) {
            throw new IllegalStateException("@AutoConfigureHoplock: the context's store is " + backend.describe()
                    + " (" + backend.getClass().getName() + "), not the in-memory store: the application defines"
                    + " its own Backend bean, which wins over hoplock.backend=memory. Leave that bean out of the"
                    + " test context (a @Profile or @ConditionalOnProperty on it) so that the starter's in-memory"
                    + " store is used.");
        }
        String prefix = env().getProperty("hoplock.locks.key-prefix", "locks/");
        VirtualTimeDriver driver = virtualTime;
        known = driver == null ? new HoplockControl(memory, TimeSource.system(), Waits.realTime(timeout), prefix)
                : HoplockControl.onVirtualTime(memory, driver.time(),
                        timeout.compareTo(VIRTUAL_LIMIT) > 0 ? timeout : VIRTUAL_LIMIT, prefix);
        control = known;
        return known;
    }

    private HoplockElections elections() {
        HoplockElections elections = beans().getBeanProvider(HoplockElections.class).getIfAvailable();
        if (elections == null) {
            throw new IllegalStateException("@AutoConfigureHoplock: this context has no elections"
                    + " (HoplockElections): hoplock is disabled (hoplock.enabled=false) or not configured.");
        }
        return elections;
    }

    private OwnershipGroup group() {
        HoplockOwnership ownership = beans().getBeanProvider(HoplockOwnership.class).getIfAvailable();
        if (ownership == null) {
            throw new IllegalStateException("@AutoConfigureHoplock: this context has no ownership group: set"
                    + " hoplock.ownership.group (for example in the test's properties) to use per-key ownership.");
        }
        return ownership.group();
    }

    private BeanFactory beans() {
        BeanFactory factory = beans;
        if (factory == null) {
            throw new IllegalStateException("HoplockTestControl is used before its context set it up");
        }
        return factory;
    }

    private Environment env() {
        Environment env = environment;
        if (env == null) {
            throw new IllegalStateException("HoplockTestControl is used before its context set it up");
        }
        return env;
    }
}
