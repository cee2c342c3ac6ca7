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
 */
public final class HoplockTestControl implements BeanFactoryAware, EnvironmentAware, DisposableBean {

    private final Duration timeout;
    private @Nullable BeanFactory beans;
    private @Nullable Environment environment;
    private @Nullable HoplockControl control;

    HoplockTestControl(Duration timeout) {
        this.timeout = timeout;
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
        control().makeLeader(elections().getDefault());
    }

    /** Makes this instance the leader of {@code election} (a name of {@code hoplock.elections}); returns once it leads. */
    public void makeLeader(String election) {
        control().makeLeader(elections().get(election));
    }

    /** Makes another instance lead the default election; returns once this instance follows it. */
    public void makeFollower() {
        control().makeFollower(elections().getDefault());
    }

    /** Makes another instance lead {@code election}; returns once this instance follows it. */
    public void makeFollower(String election) {
        control().makeFollower(elections().get(election));
    }

    /**
     * Makes the rival leading the default election crash (it stops renewing, as a killed leader); returns once this
     * instance took over, which its takeover rule allows only after a TTL of observation.
     */
    public void crashRival() {
        control().crashRival(elections().getDefault());
    }

    /** {@link #crashRival()} for {@code election}. */
    public void crashRival(String election) {
        control().crashRival(elections().get(election));
    }

    /** Whether this instance leads the default election now. */
    public boolean isLeader() {
        return elections().getDefault().isLeader();
    }

    // ------------------------------------------------------------------ named locks

    /** Lets another instance hold lock {@code name} (as {@code @WithLock(name = ...)} names it): calls skip it. */
    public void holdLockElsewhere(String name) {
        control().holdLockElsewhere(name);
    }

    /** Frees lock {@code name} if another instance holds it: the next call takes it. */
    public void freeLock(String name) {
        control().freeLock(name);
    }

    // ------------------------------------------------------------------ ownership

    /** Makes this instance lose {@code key} of its ownership group; returns once it no longer owns it. */
    public void loseKey(String key) {
        control().loseKey(group(), key);
    }

    /** Makes this instance lose every key of {@code lost} and own every key of {@code kept}; see {@link HoplockControl#loseKeys}. */
    public void loseKeys(Collection<String> lost, Collection<String> kept) {
        control().loseKeys(group(), lost, kept);
    }

    /** Makes this instance own every key again (the rival member leaves); returns once it owns {@code keys} too. */
    public void ownAllKeys(String... keys) {
        control().ownAllKeys(group(), keys);
    }

    /** Whether this instance owns {@code key} now. */
    public boolean isOwner(String key) {
        return group().isOwner(key);
    }

    @Override
    public synchronized void destroy() {
        HoplockControl started = control;
        control = null;
        if (started != null) {
            started.close();
        }
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
        known = new HoplockControl(memory, TimeSource.system(), Waits.realTime(timeout), prefix);
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
