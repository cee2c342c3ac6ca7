package dev.hoplock.core.internal.lease;

import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.record.LeaseRecord;

import java.time.Duration;

/**
 * The version of a lease record this process last wrote (or adopted) and believes is still current.
 *
 * @param handle the handle the store answered for it
 * @param record what was written
 * @param t0     the monotonic time taken before the write was sent (rule 1: validity counts from here)
 * @param ttl    the TTL it was written with (rule 1: validity lasts this long; kept for an adoption, rule 5)
 */
public record Owned(Handle handle, LeaseRecord record, long t0, Duration ttl) {
}
