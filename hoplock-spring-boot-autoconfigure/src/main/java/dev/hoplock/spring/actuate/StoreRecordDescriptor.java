package dev.hoplock.spring.actuate;

import dev.hoplock.core.operations.LeaseRecordView;
import org.jspecify.annotations.Nullable;

import java.util.Locale;

/**
 * One record as the {@code hoplock} endpoint read it from the store, judged by this machine's clock. No secrets: the
 * holder is the owner id its writer chose, the rest is the record's own fields.
 *
 * @param key                the lease key
 * @param state              {@code absent}, {@code held}, {@code expired}, {@code released}, {@code corrupt} (an
 *                           object that is no lease record), {@code present} (an ownership registry, which has its own
 *                           format) or {@code error} (the store gave no answer in time)
 * @param holder             the record's owner; null when none was read
 * @param generation         the record's fencing token; null when none was read
 * @param expiresAt          {@code expires_at} as written (by its writer's wall clock); null when none was read
 * @param expiry             the expiry by this machine's clock, for example {@code in 12s by this machine's clock};
 *                           null when none was read
 * @param clockSkewSuspected whether {@code expiresAt} lies more than 2 x TTL ahead of this machine's clock
 * @param error              what went wrong (a corrupt record, no answer); null when the read answered with a record
 *                           or its absence
 */
public record StoreRecordDescriptor(String key, String state, @Nullable String holder, @Nullable Long generation,
                                    @Nullable String expiresAt, @Nullable String expiry, boolean clockSkewSuspected,
                                    @Nullable String error) {

    static StoreRecordDescriptor of(LeaseRecordView view) {
        boolean decoded = view.holder() != null;
        return new StoreRecordDescriptor(view.key(), view.state().name().toLowerCase(Locale.ROOT),
                view.holder(), decoded ? view.generation() : null,
                view.expiresAt() == null ? null : view.expiresAt().toString(),
                decoded ? view.expiryText() : null, view.clockSkewSuspected(), view.problem());
    }

    static StoreRecordDescriptor registry(String key, boolean present) {
        return new StoreRecordDescriptor(key, present ? "present" : "absent", null, null, null, null, false, null);
    }

    static StoreRecordDescriptor failed(String key, String error) {
        return new StoreRecordDescriptor(key, "error", null, null, null, null, false, error);
    }
}
