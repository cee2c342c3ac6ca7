package dev.hoplock.core.ownership;

import java.time.Duration;

/**
 * Work on one key in progress on one thread, opened by {@link OwnershipGroup#claim(String, boolean)} while this
 * instance acts as the key's owner. Close it in a {@code finally} block or try-with-resources.
 *
 * <p>Guarantees: {@link #token()} is the key's fencing token for this ownership (pass it to a
 * {@link dev.hoplock.core.fencing.Fence} with the key as the resource); it is strictly greater than the token of every
 * earlier owner of the key. {@link #isValid()} turns false, for good, once this instance stops acting as the key's
 * owner (the key moved, the membership could not be confirmed in time, the member lease ended, the group closed);
 * the thread is interrupted then if asked at opening. While a claim on a key that moved away is open, this instance
 * does not acknowledge the new membership, and a leaving instance neither deregisters nor releases its lease: the new
 * owner waits, at most until this instance's validity has passed (the elector's rules).
 */
public interface OwnershipClaim extends AutoCloseable {

    /** The key. */
    String key();

    /** The fencing token: the membership epoch at which this instance's current ownership of the key began. */
    long token();

    /** True while this instance still acts as the key's owner with this token. No store request. */
    boolean isValid();

    /** Time left until the member lease's self-fencing deadline; zero once invalid. */
    Duration timeLeft();

    /** Throws {@link OwnershipLostException} when {@link #isValid()} is false, so that long work can check. */
    default void checkValid() {
        if (!isValid()) {
            throw new OwnershipLostException("ownership of key '" + key() + "' with token " + token() + " has ended");
        }
    }

    @Override
    void close();
}
