package dev.hoplock.core.election;

import dev.hoplock.core.OwnerIds;
import dev.hoplock.core.backend.AsyncBackend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.internal.lease.Owned;
import dev.hoplock.core.internal.lease.RequestBook;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * How a graceful release is written (rules 6 and 7 of the {@link Elector}'s safety argument): by default an expired
 * record without owner at the <em>same</em> generation, conditional on the version this process holds, so fencing
 * tokens keep increasing; with {@code releaseByDelete}, a conditional delete (as Go hoplock does; the generation then
 * restarts at 1 and followers wait a TTL, rule 4). The caller (the loop, or the lifecycle on close) sends it only once
 * leader work has stopped (rule 7).
 *
 * <p>Guarantees: a refused release changes nothing in the store (the record is no longer the version written here)
 * and is logged; whatever the answer, the version is no longer counted as owned. Used under the elector's lock.
 * <p>Implements E6 and E7 (how a release is written); text in {@link Elector}.
 */
final class Release {

    private static final Logger log = LoggerFactory.getLogger(Elector.class);

    private final ElectorSettings settings;
    private final AsyncBackend backend;
    private final RequestBook requests;
    private final StoreHealth health;
    private final RecordWatch watch;

    Release(ElectorSettings settings, AsyncBackend backend, RequestBook requests, StoreHealth health,
            RecordWatch watch) {
        this.settings = settings;
        this.backend = backend;
        this.requests = requests;
        this.health = health;
        this.watch = watch;
    }

    /**
     * Releases {@code mine} within {@code timeout}. On the answer (or timeout), under the lock: {@code disown} runs
     * first (the version is no longer ours to renew), then what was learnt is recorded, then {@code then} runs.
     */
    void send(Owned mine, Duration timeout, Runnable disown, Runnable then) {
        String key = settings.key();
        if (settings.releaseByDelete()) {
            requests.send(() -> backend.delete(key, mine.handle(), timeout), timeout,
                    (@Nullable DeleteResult result, @Nullable BackendException failure) -> {
                        disown.run();
                        if (failure != null) {
                            health.failed("release", failure);
                        } else {
                            health.answered();
                            if (result == DeleteResult.DELETED) {
                                watch.forget();
                            } else {
                                warnRefused(mine, result.toString());
                            }
                        }
                        then.run();
                    });
            return;
        }
        LeaseRecord record = LeaseRecord.released(mine.record().generation(), OwnerIds.randomHex(8));
        byte[] bytes = LeaseRecordCodec.encode(record);
        requests.send(() -> backend.write(key, mine.handle(), bytes, timeout), timeout,
                (@Nullable WriteResult result, @Nullable BackendException failure) -> {
                    disown.run();
                    if (failure != null) {
                        health.failed("release", failure);
                    } else {
                        health.answered();
                        if (result instanceof WriteResult.Written written) {
                            watch.observe(written.handle(), record, null);
                            log.info("hoplock: {} released '{}' at generation {}", settings.owner(), key,
                                    record.generation());
                        } else {
                            warnRefused(mine, ((WriteResult.Refused) result).reason().toString());
                        }
                    }
                    then.run();
                });
    }

    private void warnRefused(Owned mine, String reason) {
        log.warn("hoplock: the release of '{}' by {} at generation {} was refused ({}): the record is no longer the"
                + " version this elector wrote, so it was left as it is; if it is still ours it expires at {}",
                settings.key(), settings.owner(), mine.record().generation(), reason, mine.record().expiresAt());
    }
}
