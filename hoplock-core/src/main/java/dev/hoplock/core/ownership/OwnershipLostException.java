package dev.hoplock.core.ownership;

/** Thrown by {@link OwnershipClaim#checkValid()} once this instance no longer acts as the key's owner. */
public class OwnershipLostException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public OwnershipLostException(String message) {
        super(message);
    }
}
