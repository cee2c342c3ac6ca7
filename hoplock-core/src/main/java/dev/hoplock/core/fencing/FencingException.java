package dev.hoplock.core.fencing;

import org.jspecify.annotations.Nullable;

/**
 * A {@link Fence} check that did not pass: either because the token is stale ({@link StaleTokenException}) or because
 * the check could not be made at all (the store was unreachable, the fence table is missing). Either way the caller
 * must not write, and a transaction around the check must roll back.
 *
 * <p>Guarantees: the message names the resource and the cause, and never contains credentials. Unchecked, so that
 * Spring's {@code @Transactional} rolls back by default.
 */
public class FencingException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String resource;

    public FencingException(String resource, String message, @Nullable Throwable cause) {
        super(message, cause);
        this.resource = resource;
    }

    /** The fenced resource the check was for. */
    public String resource() {
        return resource;
    }
}
