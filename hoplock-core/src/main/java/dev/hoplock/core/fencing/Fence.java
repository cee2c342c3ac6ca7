package dev.hoplock.core.fencing;

import dev.hoplock.core.Lease;

import java.util.Objects;

/**
 * Refuses a write whose fencing token is lower than one already seen for the same resource, so that a leader paused
 * past its deadline (GC, SIGSTOP, a suspended VM) cannot overwrite what a newer leader wrote.
 *
 * <p>The token is the lease's {@link Lease#generation() generation}: it rises at every change of holder (as long as
 * leases are released by writing an expired record, the default, and not deleted). A resource is any name the
 * application chooses for the thing its leader writes ({@code "billing-export"}, a table, a file).
 *
 * <h2>Guarantee</h2>
 * Every implementation records, per resource, the highest token it has accepted, and:
 * <ul>
 *   <li>{@link #check} with a token <em>equal to or above</em> the recorded one records it and returns (equal
 *       passes: a leader writes many times within one term);</li>
 *   <li>{@link #check} with a token <em>below</em> it throws {@link StaleTokenException} naming the resource, the
 *       stale token and the recorded one, and records nothing;</li>
 *   <li>a check that cannot be made (the store is unreachable, the table is missing) throws
 *       {@link FencingException}: never a silent pass.</li>
 * </ul>
 * An implementation that runs inside the caller's transaction (such as the JDBC one) guarantees more: among the
 * transactions that passed a check for one resource and committed, the tokens never decrease in commit order. A
 * write made in the same transaction as a passed check therefore never lands after a write with a higher token.
 *
 * <p>Both exceptions are unchecked, so that a framework that rolls back on runtime exceptions (Spring's
 * {@code @Transactional}) rolls the caller's work back. Implementations are thread-safe. Arguments are never null.
 */
public interface Fence {

    /**
     * Records {@code token} for {@code resource} if it is not lower than the highest token recorded so far.
     *
     * @param resource the name of what the caller is about to write; 1 to 255 characters
     * @param token    the caller's fencing token, usually {@code lease.generation()}
     * @throws StaleTokenException when a higher token was recorded for {@code resource}
     * @throws FencingException    when the check could not be made; the caller must not write
     */
    void check(String resource, long token);

    /** {@link #check(String, long)} with the generation of {@code lease} as the token. */
    default void check(String resource, Lease lease) {
        Objects.requireNonNull(lease, "lease");
        check(resource, lease.generation());
    }

    /**
     * Returns {@code resource} if it is a valid resource name: 1 to 255 characters, none of them a control
     * character.
     *
     * @throws IllegalArgumentException naming the rule it breaks
     */
    static String validateResource(String resource) {
        if (resource == null || resource.isEmpty()) {
            throw new IllegalArgumentException("fenced resource name must not be empty");
        }
        if (resource.length() > 255) {
            throw new IllegalArgumentException("fenced resource name is " + resource.length()
                    + " characters long; the limit is 255");
        }
        if (resource.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new IllegalArgumentException("fenced resource name must not contain control characters");
        }
        return resource;
    }
}
