package dev.hoplock.spring.actuate;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.lock.Locks;
import dev.hoplock.core.time.TimeSource;
import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.spring.ownership.HoplockOwnership;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code hoplock} actuator endpoint. Reading: {@code GET /actuator/hoplock} lists every election's state
 * ({@link ElectionDescriptor}) and, with per-key ownership, the group's members and their state under
 * {@code ownership:<group>} ({@link OwnershipDescriptor}), both from local state, never a store read (a scrape of it
 * costs nothing in the store); when the endpoint knows the store, {@code store:records} there holds only the path
 * that reads it. {@code GET /actuator/hoplock/store:records} reads the record each election, the named locks this
 * instance has used (those held first, at most {@link StoreRecords#MAX_LOCKS}) and the ownership group (registry and
 * this member's lease) have in the store ({@link StoreRecords}): holder, generation, {@code expires_at} and the expiry
 * by this machine's clock. That costs one store read per record per call, on the endpoint's own threads, each bounded
 * by its request timeout; a read that fails shows as that record's error, and while an earlier call's reads still run
 * a new call reads nothing and says so. {@code GET /actuator/hoplock/{name}} shows one entry. No secrets.
 * {@code GET /actuator/hoplock/locks/held} lists the named locks this instance holds ({@link HeldLocks}). Writing:
 * {@code POST /actuator/hoplock/{name}} makes this instance step down from {@code name} if it leads it.
 *
 * <p>The write is governed by Boot's endpoint access control, like {@code shutdown}'s: this endpoint's default access
 * is {@link Access#READ_ONLY}, so the step-down exists only with {@code management.endpoint.hoplock.access=unrestricted}
 * (and, over HTTP, only when the endpoint is exposed). An unknown election answers 404 naming the elections that exist,
 * for reads and for the step-down.
 */
@Endpoint(id = "hoplock", defaultAccess = Access.READ_ONLY)
public class HoplockEndpoint {

    /** The prefix of the ownership group's entry: {@code ownership:<group>} (no election name contains ':'). */
    public static final String OWNERSHIP_PREFIX = "ownership:";

    /** The entry of the records read from the store (no election name contains ':'). */
    public static final String STORE_RECORDS = "store:records";

    /** What the root read shows under {@link #STORE_RECORDS}: where the store's records are read, on request only. */
    public static final String STORE_RECORDS_HINT = "read from the store only on request:"
            + " GET /actuator/hoplock/store:records";

    private final HoplockElections elections;
    private final @Nullable HoplockOwnership ownership;
    private final @Nullable Locks locks;
    private final @Nullable StoreRecordReader records;

    /** The elections only: no ownership group, no named locks, no store reads. */
    public HoplockEndpoint(HoplockElections elections) {
        this(elections, null, null);
    }

    /** As {@link #HoplockEndpoint(HoplockElections, HoplockOwnership, Locks, Backend, Duration)} without store reads. */
    public HoplockEndpoint(HoplockElections elections, @Nullable HoplockOwnership ownership, @Nullable Locks locks) {
        this(elections, ownership, locks, null, Duration.ofSeconds(5));
    }

    /**
     * @param elections the elections
     * @param ownership the ownership group, shown as {@code ownership:<group>}; null when not configured
     * @param locks     the named locks whose held locks {@code GET /actuator/hoplock/locks/held} lists, or null
     * @param backend   the store whose records {@code store:records} shows; null: no store reads
     * @param lockRequestTimeout the bound of each named lock's record read (elections and the group use their own)
     */
    public HoplockEndpoint(HoplockElections elections, @Nullable HoplockOwnership ownership, @Nullable Locks locks,
                           @Nullable Backend backend, Duration lockRequestTimeout) {
        this.elections = elections;
        this.ownership = ownership;
        this.locks = locks;
        this.records = backend == null ? null : new StoreRecordReader(backend, TimeSource.system(), lockRequestTimeout);
    }

    /**
     * Every election's state by name ({@link ElectionDescriptor}) and, when per-key ownership is configured, the
     * group with its members and their state ({@link OwnershipDescriptor}) under {@code ownership:<group>}.
     */
    @ReadOperation
    public Map<String, Object> read() {
        Map<String, Object> result = new LinkedHashMap<>(elections());
        ownershipDescriptor().ifPresent(descriptor -> result.put(OWNERSHIP_PREFIX + descriptor.group(), descriptor));
        if (records != null) {
            result.put(STORE_RECORDS, STORE_RECORDS_HINT);
        }
        return result;
    }

    /**
     * The records read from the store now (one read per record), when the endpoint knows the store; never on a
     * leader-only gate's path: only this endpoint calls it.
     */
    public Optional<StoreRecords> storeRecords() {
        return records == null ? Optional.empty() : Optional.of(records.read(elections, ownership, locks));
    }

    /** Stops the threads that read the store (called by the application context at close). */
    public void close() {
        if (records != null) {
            records.close();
        }
    }

    /** The ownership group's state, when configured. */
    public Optional<OwnershipDescriptor> ownershipDescriptor() {
        return ownership == null ? Optional.empty()
                : Optional.of(OwnershipDescriptor.of(ownership, ownership.isClosed()));
    }

    /**
     * {@code GET /actuator/hoplock/locks/held}: the named locks this instance holds now (valid by its local clocks),
     * sorted by name, with their fencing token, expiry and time left; no store request. Any other path of two
     * segments answers 404.
     */
    @ReadOperation
    public WebEndpointResponse<Object> locks(@Selector String section, @Selector String view) {
        if (!section.equals("locks") || !view.equals("held")) {
            return new WebEndpointResponse<>(Map.of("message", "unknown path " + section + "/" + view
                    + "; the held locks are at locks/held"), WebEndpointResponse.STATUS_NOT_FOUND);
        }
        List<HeldLockDescriptor> held = locks == null ? List.of() : locks.held().stream()
                .map(HeldLockDescriptor::of).sorted(Comparator.comparing(HeldLockDescriptor::name)).toList();
        return new WebEndpointResponse<>(new HeldLocks(locks == null ? null : locks.owner(), held));
    }

    /**
     * The locks this instance holds.
     *
     * @param owner the owner id of this instance's locks (null: no named locks here)
     * @param locks the locks held now
     */
    public record HeldLocks(@Nullable String owner, List<HeldLockDescriptor> locks) {
    }

    /** Every election's state, by name. */
    public Map<String, ElectionDescriptor> elections() {
        Map<String, ElectionDescriptor> result = new LinkedHashMap<>();
        elections.asMap().forEach((name, elector) -> result.put(name,
                ElectionDescriptor.of(name, elector, elections.candidacy())));
        return result;
    }

    /**
     * One election's state; over HTTP a 404 whose body names the elections that exist when there is no such
     * election.
     */
    @ReadOperation
    public WebEndpointResponse<Object> election(@Selector String name) {
        Optional<OwnershipDescriptor> group = ownershipDescriptor()
                .filter(descriptor -> name.equals(OWNERSHIP_PREFIX + descriptor.group()));
        if (group.isPresent()) {
            return new WebEndpointResponse<>(group.get());
        }
        if (name.equals(STORE_RECORDS)) {
            Optional<StoreRecords> read = storeRecords();
            if (read.isPresent()) {
                return new WebEndpointResponse<>(read.get());
            }
        }
        return elections.find(name)
                .<WebEndpointResponse<Object>>map(elector -> new WebEndpointResponse<>(ElectionDescriptor.of(name,
                        elector, elections.candidacy())))
                .orElseGet(() -> noSuchElection(name));
    }

    /**
     * Steps down from {@code name}: the lease is released and this instance does not campaign again for one TTL. Over
     * HTTP a 404 whose body names the elections that exist when there is no such election (never a 204 that would
     * look like success).
     */
    @WriteOperation
    public WebEndpointResponse<Object> stepDown(@Selector String name) {
        Optional<Elector> elector = elections.find(name);
        if (elector.isEmpty()) {
            return noSuchElection(name);
        }
        boolean stepped = elector.get().stepDown();
        return new WebEndpointResponse<>(new StepDownResult(name, stepped, stepped
                ? "stepped down; the lease is released"
                : "this instance does not lead '" + name + "'; nothing to do"));
    }

    /** The 404 answer for an election name that is not configured: says which ones are. */
    private WebEndpointResponse<Object> noSuchElection(String name) {
        return new WebEndpointResponse<>(new NoSuchElection(name, List.copyOf(elections.names()),
                "no election '" + name + "' is configured here; configured: " + elections.names()),
                WebEndpointResponse.STATUS_NOT_FOUND);
    }

    /**
     * The body of a 404: the name asked for and the elections that exist.
     *
     * @param election  the name asked for
     * @param elections the configured election names
     * @param message   what went wrong, for people
     */
    public record NoSuchElection(String election, List<String> elections, String message) {
    }

    /**
     * The outcome of a step-down request.
     *
     * @param election    the election
     * @param steppedDown whether this instance was leading and stepped down
     * @param message     what happened
     */
    public record StepDownResult(String election, boolean steppedDown, String message) {
    }
}
