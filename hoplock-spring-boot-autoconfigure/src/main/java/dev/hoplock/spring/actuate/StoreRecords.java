package dev.hoplock.spring.actuate;

import org.jspecify.annotations.Nullable;

import java.util.Map;

/**
 * The records the {@code hoplock} endpoint read from the store for one call: one read per record, in parallel, each
 * bounded by the request timeout; a record whose read failed shows its error, the others still show.
 *
 * @param backend   the store's description (never with credentials)
 * @param elections each election's lease record, by election name
 * @param locks     the named locks this instance has used, by lock name: those it holds first, then the others by name,
 *                  at most {@link #MAX_LOCKS} in all
 * @param truncated null when every lock name shows; else how many were left out and why
 * @param ownership the ownership group's {@code registry} record and this member's liveness lease ({@code member});
 *                  empty without per-key ownership
 * @param error     null when the store was read; else why it was not (a previous call's reads still run), with every
 *                  map empty
 */
public record StoreRecords(String backend, Map<String, StoreRecordDescriptor> elections,
                           Map<String, StoreRecordDescriptor> locks, @Nullable String truncated,
                           Map<String, StoreRecordDescriptor> ownership, @Nullable String error) {

    /** The most lock records read per call: an instance may have used any number of lock names. */
    public static final int MAX_LOCKS = 50;
}
