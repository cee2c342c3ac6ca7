package dev.hoplock.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The coordination primitive a chaos run exercises ({@code primitive=} on {@code chaos/run.sh}), and how its acting
 * sessions are named. Every session acts on one <em>resource</em> with one fencing token; fenced writes go to that
 * resource, and the checks (overlaps, stale writes, tokens rising at a change of holder) are made per resource.
 * <ul>
 *   <li>{@link #ELECTOR}: one {@code Elector} per node on one key; the one resource is {@value #ELECTOR_RESOURCE},
 *       the token the lease generation;</li>
 *   <li>{@link #LOCK}: {@code NamedLocks} per node, the same few names ({@code lock-0}, {@code lock-1}, ...) contended
 *       by every node; resource {@code lock/<name>}, the token the lock's token;</li>
 *   <li>{@link #OWNERSHIP}: each node a member of one {@code OwnershipGroup}, working on the keys it owns
 *       ({@code key-0}, ...) through {@code claim()}; resource {@code key/<key>}, the token the claim's token.</li>
 * </ul>
 */
enum Primitive {

    ELECTOR("the leader", "leader work", 1, 1),
    LOCK("a lock holder", "lock-holder work", 3, 1),
    OWNERSHIP("a key owner", "owner work", 6, 2);

    /** The resource of the elector's fenced writes (its one lease). */
    static final String ELECTOR_RESOURCE = "chaos-writes";

    private final String holder;
    private final String work;
    private final int defaultResources;
    private final int takeoverTtls;

    Primitive(String holder, String work, int defaultResources, int takeoverTtls) {
        this.holder = holder;
        this.work = work;
        this.defaultResources = defaultResources;
        this.takeoverTtls = takeoverTtls;
    }

    /**
     * How many TTLs a takeover from a stopped or cut-off holder may take before the scenario's slack: one for the
     * elector and locks (the lease ends, then a taker's observation of a whole TTL, overlapping it); two for
     * ownership, whose keys move only after the member's lease is judged ended (M6), then the new epoch settles (M3):
     * "about one to two TTLs" ({@code OwnershipGroup}'s limits). SIGSTOP and proxy faults last that long plus slack.
     */
    int takeoverTtls() {
        return takeoverTtls;
    }

    /** Parses {@code primitive=}; an unknown value names the accepted ones. */
    static Primitive parse(String value) {
        for (Primitive primitive : values()) {
            if (primitive.argument().equals(value)) {
                return primitive;
            }
        }
        throw new IllegalArgumentException("primitive must be elector, lock or ownership, was '" + value + "'");
    }

    /** The value of {@code primitive=} that selects this one. */
    String argument() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Who acts, in scenario texts: "the leader", "a lock holder", "a key owner". */
    String holder() {
        return holder;
    }

    /** What acting is called in scenario texts: "leader work", ... */
    String work() {
        return work;
    }

    /** How many lock names or keys a run uses unless {@code resources=} says otherwise (the elector: always 1). */
    int resourceCount(@Nullable String argument) {
        if (this == ELECTOR) {
            return 1;
        }
        int count = argument == null ? defaultResources : Integer.parseInt(argument);
        if (count < 1) {
            throw new IllegalArgumentException("resources must be at least 1, was " + count);
        }
        return count;
    }

    /** The lock names or keys of a run with {@code count} of them (the elector: none, it has one lease). */
    List<String> names(int count) {
        List<String> names = new ArrayList<>();
        if (this != ELECTOR) {
            for (int i = 0; i < count; i++) {
                names.add((this == LOCK ? "lock-" : "key-") + i);
            }
        }
        return names;
    }

    /** The resource of fenced writes under lock name or key {@code name}. */
    String resource(String name) {
        return switch (this) {
            case ELECTOR -> ELECTOR_RESOURCE;
            case LOCK -> "lock/" + name;
            case OWNERSHIP -> "key/" + name;
        };
    }

    /** Every resource of a run with {@code count} names or keys. */
    List<String> resources(int count) {
        return this == ELECTOR ? List.of(ELECTOR_RESOURCE) : names(count).stream().map(this::resource).toList();
    }
}
