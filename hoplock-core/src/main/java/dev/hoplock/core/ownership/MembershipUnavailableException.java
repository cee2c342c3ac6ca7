package dev.hoplock.core.ownership;

/**
 * Thrown by {@link Membership#members()} when the membership does not know the members now (not joined yet, or its
 * view is too old to trust). Callers treat it as "no owner for any key" and skip the work (fail closed); the message
 * says why, for logs and health output.
 */
public class MembershipUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MembershipUnavailableException(String message) {
        super(message);
    }

    public MembershipUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
