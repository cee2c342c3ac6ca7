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
 *   <li>{@link #check} with a token <em>above</em> the recorded one records it and returns;</li>
 *   <li>{@link #check} with a token <em>equal</em> to the recorded one returns (a leader writes many times within one
 *       term), except as below for a different holder;</li>
 *   <li>{@link #check} with a token <em>below</em> it throws {@link StaleTokenException} naming the resource, the
 *       stale token and the recorded one, and records nothing;</li>
 *   <li>a check that cannot be made (the store is unreachable, the table is missing) throws
 *       {@link FencingException}: never a silent pass.</li>
 * </ul>
 *
 * <h2>Equal tokens of two holders</h2>
 * A token can repeat: when the lease record is deleted from outside the library (an operator, a bucket lifecycle
 * rule, a dropped table), a process that never saw it creates it again at generation 1, so a stale holder of the
 * deleted record and the new holder can carry the same token. A fence that knows holders
 * ({@link #check(String, long, String)}, and {@link #check(String, Lease)} with the lease's
 * {@link Lease#owner() owner}) records the holder with the token and refuses an equal token from a
 * <em>different</em> holder with {@link StaleTokenException} ({@link StaleTokenException#staleToken()} equal to
 * {@link StaleTokenException#currentToken()}). So at one token only one holder's writes ever pass: writes of two
 * holders never interleave. We chose this over tokens derived from the wall clock at creation: it needs no clock, so
 * clock skew cannot make a new holder's token fall below a stale one's. Its limit: whichever holder of the repeated
 * token checks first keeps the resource; if that is the stale one, the new holder is refused (safely) until its
 * token rises above the recorded one, at its next change of holder. A check without a holder ({@link #check(String,
 * long)}, or a fence that does not record holders) keeps the older rule: an equal token passes.
 *
 * <p>An implementation that runs inside the caller's transaction (such as the JDBC one) guarantees more: among the
 * transactions that passed a check for one resource and committed, the tokens never decrease in commit order, and a
 * token's transactions are all of one holder when every check named its holder. A write made in the same transaction
 * as a passed check therefore never lands after a write with a higher token.
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

    /**
     * {@link #check(String, long)} for the holder {@code holder} (the lease's owner id): as that method, and an equal
     * token recorded by a different holder is refused with {@link StaleTokenException}, see "Equal tokens of two
     * holders". An empty {@code holder} is a check without a holder.
     *
     * <p>The default, for a fence that does not record holders, ignores {@code holder} (an equal token passes);
     * the JDBC fences override it.
     *
     * @param holder the holder's unique id, at most 255 characters without control characters; empty for none
     * @throws StaleTokenException when a higher token, or the same token of another holder, was recorded
     */
    default void check(String resource, long token, String holder) {
        validateHolder(holder);
        check(resource, token);
    }

    /** {@link #check(String, long, String)} with the generation of {@code lease} as the token, its owner as holder. */
    default void check(String resource, Lease lease) {
        Objects.requireNonNull(lease, "lease");
        check(resource, lease.generation(), lease.owner());
    }

    /**
     * Returns {@code holder} if it is a valid holder id: at most 255 characters, none of them a control character
     * (empty: no holder).
     *
     * @throws IllegalArgumentException naming the rule it breaks
     */
    static String validateHolder(String holder) {
        Objects.requireNonNull(holder, "holder");
        if (holder.length() > 255) {
            throw new IllegalArgumentException("fence holder id is " + holder.length()
                    + " characters long; the limit is 255");
        }
        if (holder.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new IllegalArgumentException("fence holder id must not contain control characters");
        }
        return holder;
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
