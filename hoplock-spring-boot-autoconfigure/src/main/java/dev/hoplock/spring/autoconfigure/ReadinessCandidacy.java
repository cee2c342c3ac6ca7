package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.spring.leader.Candidacy;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.ownership.HoplockOwnership;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.SmartApplicationListener;

/**
 * Makes every primitive follow the application's readiness ({@code hoplock.act-when=ready}, the default; the
 * deprecated {@code hoplock.campaign-when} when that is unset): this application takes part only while its readiness
 * state is {@link ReadinessState#ACCEPTING_TRAFFIC}, so an instance still warming up never wins an election, never
 * joins its ownership group and never takes a lock for a {@code @WithLock} call. The one state all of them read is
 * the {@link Candidacy}.
 *
 * <ul>
 *   <li>Until the first {@code ACCEPTING_TRAFFIC} (SpringApplication publishes it right after
 *       {@link ApplicationReadyEvent}), the electors are not started (no claim, no request to the store), the
 *       ownership group is not joined ({@link OwnershipLifecycle}: no registration, no membership lease), and
 *       {@code @WithLock} calls are skipped without a store request, reported as
 *       {@code WithLockListener.Refusal.NOT_READY} (counted by {@code hoplock.locks.refused}, reason
 *       {@code not_ready}).</li>
 *   <li>{@code REFUSING_TRAFFIC} (a web server's graceful shutdown publishes it when the context starts closing; an
 *       application publishes it to say it is not ready) withdraws: a leader steps down and releases, so another
 *       instance takes over at its next poll, and no claim is written ({@link Candidacy}); {@code @WithLock} calls are
 *       skipped again. The ownership group stays joined: leaving cannot be undone, and a graceful shutdown's
 *       {@code REFUSING_TRAFFIC} is followed by the context's close, which leaves.</li>
 *   <li>{@code ACCEPTING_TRAFFIC} again campaigns again (after the one TTL a step-down pauses the elector).</li>
 *   <li>{@link ApplicationReadyEvent} counts as accepting traffic unless a readiness event said otherwise, for
 *       applications that publish readiness without Boot's availability support.</li>
 * </ul>
 * A context that SpringApplication does not run (no {@code springApplicationArguments} bean: a plain
 * {@code ApplicationContextRunner}, a hand-built context) never publishes readiness: it campaigns once started, as
 * with {@code campaign-when=started}, and says so once in the log.
 */
final class ReadinessCandidacy implements SmartApplicationListener {

    private static final Logger log = LoggerFactory.getLogger(ReadinessCandidacy.class);

    /** The reason shown while this application waits for its first ACCEPTING_TRAFFIC. */
    static final String WAITING = "the application is not ready yet: hoplock.act-when=ready takes part once the"
            + " readiness state is ACCEPTING_TRAFFIC";

    /** The reason shown while the application refuses traffic. */
    static final String REFUSING = "the application's readiness state is REFUSING_TRAFFIC (graceful shutdown, or"
            + " the application said it is not ready); hoplock.act-when=ready takes part again when it accepts"
            + " traffic";

    private final ObjectProvider<HoplockElections> elections;
    private final ObjectProvider<Backend> backend;
    private final ObjectProvider<HoplockProperties> properties;
    private final ObjectProvider<HoplockOwnership> ownership;
    private volatile @Nullable ReadinessState lastReadiness;

    /** Providers, so that this early listener creates none of them before the context needs them. */
    ReadinessCandidacy(ObjectProvider<HoplockElections> elections, ObjectProvider<Backend> backend,
            ObjectProvider<HoplockProperties> properties, ObjectProvider<HoplockOwnership> ownership) {
        this.elections = elections;
        this.backend = backend;
        this.properties = properties;
        this.ownership = ownership;
    }

    /**
     * The candidacy this application starts with: withdrawn until ready when {@code campaign-when=ready} and
     * SpringApplication runs the context (it publishes readiness), else a candidate.
     */
    static Candidacy initial(HoplockProperties.ActWhen actWhen, ApplicationContext context) {
        if (actWhen == HoplockProperties.ActWhen.STARTED) {
            return Candidacy.candidate();
        }
        if (!context.containsBean("springApplicationArguments")) {
            log.info("hoplock: this application context is not run by SpringApplication, so it publishes no"
                    + " readiness; it takes part once it has started (as with hoplock.act-when=started)");
            return Candidacy.candidate();
        }
        return Candidacy.withdrawn(Candidacy.Source.READINESS, WAITING);
    }

    @Override
    public boolean supportsEventType(Class<? extends ApplicationEvent> type) {
        return ApplicationReadyEvent.class.isAssignableFrom(type)
                || AvailabilityChangeEvent.class.isAssignableFrom(type);
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        HoplockProperties settings = properties.getIfAvailable();
        if (settings == null || settings.actWhen() != HoplockProperties.ActWhen.READY) {
            return;
        }
        HoplockElections electors = elections.getIfAvailable();
        if (electors == null) {
            return;
        }
        if (event instanceof AvailabilityChangeEvent<?> change && change.getState() instanceof ReadinessState state) {
            lastReadiness = state;
            if (state == ReadinessState.ACCEPTING_TRAFFIC) {
                campaign(electors);
            } else {
                withdraw(electors);
            }
        } else if (event instanceof ApplicationReadyEvent && lastReadiness != ReadinessState.REFUSING_TRAFFIC) {
            campaign(electors);
        }
    }

    /** Joins the ownership group, if there is one, once the application is ready (idempotent). */
    private void join() {
        HoplockOwnership group = ownership.getIfAvailable();
        if (group != null && !group.isClosed()) {
            group.start();
        }
    }

    private void campaign(HoplockElections electors) {
        Candidacy candidacy = electors.candidacy();
        if (!candidacy.isWithdrawnBy(Candidacy.Source.READINESS)) {
            return;
        }
        if (candidacy.isWithdrawnBy(Candidacy.Source.LIFECYCLE)) {
            // Accepting traffic while the context is stopped: readiness no longer withholds, the start campaigns.
            electors.campaign(Candidacy.Source.READINESS);
            log.info("hoplock: the application is ready (ACCEPTING_TRAFFIC) but its context is stopped: it takes part"
                    + " in {} when the context starts", electors.names());
            return;
        }
        join();
        log.info("hoplock: the application is ready (ACCEPTING_TRAFFIC): campaigning in {}", electors.names());
        if (backend.getIfAvailable() instanceof InMemoryBackend) {
            HoplockLifecycle.awaitFirstRound(electors, () -> electors.campaign(Candidacy.Source.READINESS));
        } else {
            electors.campaign(Candidacy.Source.READINESS);
        }
    }

    private void withdraw(HoplockElections electors) {
        if (electors.candidacy().isWithdrawnBy(Candidacy.Source.READINESS)) {
            return;
        }
        log.info("hoplock: the application refuses traffic (REFUSING_TRAFFIC): stepping down and not campaigning in"
                + " {} until it accepts traffic again", electors.names());
        electors.withdraw(Candidacy.Source.READINESS, REFUSING);
    }
}
