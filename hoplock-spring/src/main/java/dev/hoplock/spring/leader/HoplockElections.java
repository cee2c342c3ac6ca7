package dev.hoplock.spring.leader;

import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.Lease;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The electors of this application, by election name: the bean to inject to ask "do I lead?" or to reach an
 * {@link Elector} directly.
 *
 * <p>Guarantees: the set of elections is fixed when the context starts. Lookups never touch the store. The electors
 * are started with the application context and closed when it closes ({@code HoplockLifecycle}); a stop that is not a
 * close ({@code context.stop()}, Spring Framework 7's {@code pause()}) {@link #withdraw withdraws} instead, and the
 * next start {@link #campaign() campaigns} again with the same electors; {@link #close()} closes any that are still
 * open (it is the bean's destroy method). Whether this application campaigns is its {@link Candidacy}:
 * {@link #withdraw(String)} steps down and stops claiming, {@link #campaign()} claims again (and starts electors that
 * were never started); a term begun by a claim sent before a withdrawal is stepped down when it is acquired.
 */
public final class HoplockElections implements AutoCloseable {

    private final Map<String, Elector> electors;
    private final @Nullable String defaultName;
    private final Map<String, Long> startedAt = new ConcurrentHashMap<>();
    private final Candidacy candidacy;

    /**
     * Electors that always campaign once started.
     *
     * @param electors    the electors by election name, in configuration order
     * @param defaultName the election used when none is named: may be null when several are configured and none is
     *                    named {@code default}
     */
    public HoplockElections(Map<String, Elector> electors, @Nullable String defaultName) {
        this(electors, defaultName, Candidacy.candidate());
    }

    /**
     * @param electors    the electors by election name, in configuration order, each built over
     *                    {@code candidacy.guard(store)}
     * @param defaultName the election used when none is named: may be null when several are configured and none is
     *                    named {@code default}
     * @param candidacy   whether this application campaigns
     */
    public HoplockElections(Map<String, Elector> electors, @Nullable String defaultName, Candidacy candidacy) {
        this.electors = Collections.unmodifiableMap(new LinkedHashMap<>(electors));
        if (defaultName != null && !this.electors.containsKey(defaultName)) {
            throw new IllegalArgumentException("default election '" + defaultName + "' is not among " + names());
        }
        this.defaultName = defaultName;
        this.candidacy = candidacy;
        // A claim sent just before a withdrawal may still land: its term ends at once.
        this.electors.values().forEach(elector -> elector.addListener(event -> {
            if (event instanceof ElectionEvent.Acquired && !candidacy.isCandidate()) {
                elector.stepDown();
            }
        }));
    }

    /** Whether this application campaigns now, and why not. */
    public Candidacy candidacy() {
        return candidacy;
    }

    /**
     * Stops campaigning in every election, for {@code reason}: a leader steps down (leader work is told to stop, the
     * lease is released once it has), and no elector claims a lease until {@link #campaign()}. Electors keep following
     * the elections. Idempotent. As {@link #withdraw(Candidacy.Source, String)} by the application.
     */
    public void withdraw(String reason) {
        withdraw(Candidacy.Source.APPLICATION, reason);
    }

    /**
     * As {@link #withdraw(String)}, by {@code source}: the application campaigns again only once every source that
     * withdrew it has entered again ({@link #campaign(Candidacy.Source)}).
     */
    public void withdraw(Candidacy.Source source, String reason) {
        // Step down first (the campaign pauses), then refuse claims, then step down a term a claim in flight began.
        electors.values().forEach(Elector::stepDown);
        candidacy.withdraw(source, reason);
        electors.values().forEach(Elector::stepDown);
    }

    /**
     * Campaigns in every election again, as far as the application's own withdrawal goes:
     * {@link #campaign(Candidacy.Source)} by the application.
     */
    public void campaign() {
        campaign(Candidacy.Source.APPLICATION);
    }

    /**
     * Ends {@code source}'s withdrawal. If no other source withholds the application, claims are written again (an
     * elector that stepped down waits out the one TTL its step-down pauses it) and electors never started are
     * started. Idempotent.
     *
     * @return true when the application is a candidate now
     */
    public boolean campaign(Candidacy.Source source) {
        if (!candidacy.enter(source)) {
            return false;
        }
        startAll();
        return true;
    }

    /** The election names, in configuration order. */
    public Set<String> names() {
        return electors.keySet();
    }

    /** The electors by election name, in configuration order (unmodifiable). */
    public Map<String, Elector> asMap() {
        return electors;
    }

    /** The elector of {@code name}, if configured. */
    public Optional<Elector> find(String name) {
        return Optional.ofNullable(electors.get(name));
    }

    /**
     * The elector of {@code name}; an empty name means the default election.
     *
     * @throws IllegalArgumentException naming the configured elections when there is no such election
     */
    public Elector get(String name) {
        return Objects.requireNonNull(electors.get(resolve(name)), "resolve names a configured election");
    }

    /** The name of the default election: {@code default}, or the only one configured. */
    public Optional<String> defaultName() {
        return Optional.ofNullable(defaultName);
    }

    /** The elector of the default election. */
    public Elector getDefault() {
        return get("");
    }

    /** True while this process leads {@code name} (empty: the default election). No store request. */
    public boolean isLeader(String name) {
        return get(name).isLeader();
    }

    /** The lease held in {@code name} (empty: the default election), if leading. No store request. */
    public Optional<Lease> currentLease(String name) {
        return get(name).currentLease();
    }

    /**
     * The configured election that {@code name} refers to: {@code name} itself, or the default election when
     * {@code name} is empty.
     *
     * @throws IllegalArgumentException when there is no such election, naming those that exist
     */
    public String resolve(String name) {
        if (name == null || name.isEmpty()) {
            if (defaultName == null) {
                if (electors.isEmpty()) {
                    throw new IllegalArgumentException("no election is configured");
                }
                throw new IllegalArgumentException("no election named: " + electors.size() + " elections are configured "
                        + names() + " and none is named 'default'; name one, for example @LeaderOnly(\""
                        + electors.keySet().iterator().next() + "\")");
            }
            return defaultName;
        }
        if (!electors.containsKey(name)) {
            throw new IllegalArgumentException("no election '" + name + "' is configured; configured: " + names()
                    + " (add it under hoplock.elections." + name + ")");
        }
        return name;
    }

    /** Time since {@code name}'s elector was started; empty if it has not been. */
    public Optional<Duration> sinceStarted(String name) {
        Long at = startedAt.get(name);
        return at == null ? Optional.empty() : Optional.of(Duration.ofNanos(Math.max(0, System.nanoTime() - at)));
    }

    /** Starts every elector that is not started yet (idempotent). */
    public void startAll() {
        electors.forEach((name, elector) -> {
            if (!elector.isStopped() && startedAt.putIfAbsent(name, System.nanoTime()) == null) {
                elector.start();
            }
        });
    }

    /**
     * Closes every elector: ends leader work (interrupting {@code @LeaderOnly} calls), waits for it up to each
     * release timeout, releases the leases. Completes when all are done; never fails.
     */
    public CompletableFuture<Void> closeAllAsync() {
        return CompletableFuture.allOf(electors.values().stream()
                .map(Elector::closeAsync)
                .toArray(CompletableFuture[]::new));
    }

    /** Closes every elector, all at once, and waits (bounded by the electors' own timeouts). */
    @Override
    public void close() {
        closeAllAsync();
        electors.values().forEach(Elector::close);
    }

    @Override
    public String toString() {
        return "HoplockElections" + names();
    }
}
