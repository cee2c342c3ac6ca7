package dev.hoplock.core.operations;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.LeaseKeys;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.record.LeaseRecord;
import dev.hoplock.core.record.LeaseRecordCodec;
import dev.hoplock.core.record.MalformedLeaseRecordException;
import dev.hoplock.core.time.TimeSource;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads one lease key and says who holds it ({@link LeaseRecordView}), judged by this machine's wall clock.
 *
 * <p>Guarantees: one {@link Backend#read} per call, bounded by the request timeout; never writes. The record is decoded
 * by the one codec every hoplock primitive uses ({@link LeaseRecordCodec}), so what it calls corrupt is exactly what an
 * elector counts as held-but-unreadable. Thread-safe.
 */
public final class LeaseInspection {

    /** The clock-skew threshold of the library: a record expiring more than this many TTLs ahead is suspect. */
    static final int SKEW_TTLS = 2;

    private final Backend backend;
    private final TimeSource time;
    private final Duration requestTimeout;

    /**
     * @param backend        the store to read
     * @param time           this machine's clocks (the wall clock judges the expiry)
     * @param requestTimeout the bound of each read
     */
    public LeaseInspection(Backend backend, TimeSource time, Duration requestTimeout) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.time = Objects.requireNonNull(time, "time");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
    }

    /**
     * Reads {@code key}; {@code ttl} (the TTL its holders use; null when unknown, as for a named lock whose callers
     * choose their own) only decides whether an expiry lies suspiciously far ahead.
     *
     * @throws IllegalArgumentException when {@code key} is not a valid lease key (the message says the rule)
     * @throws BackendException         when the store gave no answer within the request timeout
     */
    public LeaseRecordView read(String key, @Nullable Duration ttl) throws BackendException {
        LeaseKeys.validate(key);
        Optional<StoredObject> found = backend.read(key, requestTimeout);
        return view(key, found.orElse(null), time.wallNow(), ttl);
    }

    /** The view of {@code found} (null: absent) under {@code key}, judged at {@code wallNow}. */
    public static LeaseRecordView view(String key, @Nullable StoredObject found,
                                       Instant wallNow, @Nullable Duration ttl) {
        if (found == null) {
            return new LeaseRecordView(key, LeaseRecordView.State.ABSENT, null, 0, null, null, false, null, null,
                    wallNow);
        }
        String handle = found.handle().value();
        LeaseRecord record;
        try {
            record = LeaseRecordCodec.decode(found.content());
        } catch (MalformedLeaseRecordException e) {
            return new LeaseRecordView(key, LeaseRecordView.State.CORRUPT, null, 0, null, null, false, handle,
                    corruptText(key, e.getMessage()), wallNow);
        }
        return view(key, record, handle, wallNow, ttl);
    }

    /** The view of a decoded {@code record} with {@code handle} under {@code key}, judged at {@code wallNow}. */
    static LeaseRecordView view(String key, LeaseRecord record, String handle, Instant wallNow,
                                @Nullable Duration ttl) {
        if (record.isReleased()) {
            return new LeaseRecordView(key, LeaseRecordView.State.RELEASED, "", record.generation(),
                    record.expiresAt(), null, false, handle, null, wallNow);
        }
        Duration expiresIn = Duration.between(wallNow, record.expiresAt());
        boolean skew = ttl != null && expiresIn.compareTo(ttl.multipliedBy(SKEW_TTLS)) > 0;
        LeaseRecordView.State state = record.isExpiredAt(wallNow) ? LeaseRecordView.State.EXPIRED
                : LeaseRecordView.State.HELD;
        return new LeaseRecordView(key, state, record.owner(), record.generation(), record.expiresAt(), expiresIn,
                skew, handle, null, wallNow);
    }

    /** The text for an object under {@code key} that is no lease record: the key, what is wrong, and what to do. */
    static String corruptText(String key, @Nullable String what) {
        String text = "the object under '" + key + "' is not a lease record (" + what + ")";
        if (key.endsWith("/registry")) {
            return text + "; this key looks like an ownership group's registry, which has its own format and is"
                    + " never released by hand: its members remove a stopped member themselves (rule M6)";
        }
        return text + "; it is never released by hand (its generation is unknown, so the fencing token could go"
                + " down): electors treat it as held and take it over by themselves after one TTL of unchanged"
                + " observation, at a generation above every one they saw";
    }
}
