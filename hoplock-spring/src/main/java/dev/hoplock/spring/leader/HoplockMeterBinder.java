package dev.hoplock.spring.leader;

import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.Holder;
import dev.hoplock.core.Lease;
import dev.hoplock.core.election.LossCause;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The per-election meters, tagged {@code election}:
 * <ul>
 *   <li>{@value #LEADER} (gauge): 1 while this instance leads (self-fencing deadline not passed), else 0;</li>
 *   <li>{@value #GENERATION} (gauge): the generation of the lease held, else of the holder last seen; NaN when none
 *       is known;</li>
 *   <li>{@value #LEASE_REMAINING} (gauge, seconds): time left until the self-fencing deadline, 0 when not leading;</li>
 *   <li>{@value #ACQUISITIONS} (counter): terms begun by this instance;</li>
 *   <li>{@value #LOSSES} (counter, also tagged {@code cause}): terms ended, by {@link LossCause}.</li>
 * </ul>
 * Gauges read local state only; no meter causes a store request. Counters are registered up front, at zero.
 */
public final class HoplockMeterBinder implements MeterBinder, DisposableBean {

    public static final String LEADER = "hoplock.leader";
    public static final String GENERATION = "hoplock.generation";
    public static final String LEASE_REMAINING = "hoplock.lease.remaining";
    public static final String ACQUISITIONS = "hoplock.acquisitions";
    public static final String LOSSES = "hoplock.losses";

    private static final Logger log = LoggerFactory.getLogger(HoplockMeterBinder.class);

    private final HoplockElections elections;
    private final ElectorSubscriptions subscriptions = new ElectorSubscriptions(log, "a metrics subscription");

    public HoplockMeterBinder(HoplockElections elections) {
        this.elections = elections;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        elections.asMap().forEach((name, elector) -> bind(registry, name, elector));
    }

    private void bind(MeterRegistry registry, String name, Elector elector) {
        Gauge.builder(LEADER, elector, e -> e.isLeader() ? 1 : 0)
                .description("1 while this instance leads the election, else 0")
                .tag("election", name)
                .strongReference(true)
                .register(registry);
        Gauge.builder(GENERATION, elector, HoplockMeterBinder::generation)
                .description("Generation (fencing token) of the lease held, else of the holder last seen")
                .tag("election", name)
                .strongReference(true)
                .register(registry);
        Gauge.builder(LEASE_REMAINING, elector, e -> e.timeLeft().toNanos() / 1e9)
                .description("Time left until this leader's self-fencing deadline; 0 when not leading")
                .tag("election", name)
                .baseUnit("seconds")
                .strongReference(true)
                .register(registry);
        Counter acquisitions = Counter.builder(ACQUISITIONS)
                .description("Terms of leadership begun by this instance")
                .tag("election", name)
                .register(registry);
        Map<LossCause, Counter> losses = new EnumMap<>(LossCause.class);
        for (LossCause cause : LossCause.values()) {
            losses.put(cause, Counter.builder(LOSSES)
                    .description("Terms of leadership ended, by cause")
                    .tag("election", name)
                    .tag("cause", cause.name().toLowerCase(java.util.Locale.ROOT))
                    .register(registry));
        }
        subscriptions.add(elector.addListener(event -> {
            if (event instanceof ElectionEvent.Acquired) {
                acquisitions.increment();
            } else if (event instanceof ElectionEvent.Lost lost) {
                Objects.requireNonNull(losses.get(lost.cause()), "a counter per cause").increment();
            }
        }));
    }

    private static double generation(Elector elector) {
        Lease lease = elector.currentLease().orElse(null);
        if (lease != null) {
            return lease.generation();
        }
        Holder holder = elector.holder().orElse(null);
        return holder == null ? Double.NaN : holder.generation();
    }

    @Override
    public void destroy() {
        subscriptions.closeAll();
    }
}
