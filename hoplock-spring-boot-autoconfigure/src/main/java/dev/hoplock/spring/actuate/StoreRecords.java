package dev.hoplock.spring.actuate;

import java.util.Map;

/**
 * The records the {@code hoplock} endpoint read from the store for one call: one read per record, in parallel, each
 * bounded by the request timeout; a record whose read failed shows its error, the others still show.
 *
 * @param backend   the store's description (never with credentials)
 * @param elections each election's lease record, by election name
 * @param locks     each named lock this instance has used, by lock name
 * @param ownership the ownership group's {@code registry} record and this member's liveness lease ({@code member});
 *                  empty without per-key ownership
 */
public record StoreRecords(String backend, Map<String, StoreRecordDescriptor> elections,
                           Map<String, StoreRecordDescriptor> locks, Map<String, StoreRecordDescriptor> ownership) {
}
