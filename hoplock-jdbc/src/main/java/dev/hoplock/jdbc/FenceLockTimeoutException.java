package dev.hoplock.jdbc;

import dev.hoplock.core.fencing.FencingException;

import java.time.Duration;

/**
 * A {@link JdbcFence} check that waited its whole lock timeout ({@link JdbcFence#lockTimeout(Duration)}; in Spring
 * Boot {@code hoplock.fence.lock-timeout}) for the fence row, which another transaction holds and has not ended: most
 * likely an earlier holder frozen inside its fenced transaction (a GC pause, a stopped process), or a long fenced
 * transaction of the same resource. Nothing was checked: the write must not proceed and the transaction must roll
 * back; a retry after the other transaction ended either passes or is refused by the token check.
 *
 * <p>Guarantees: the message names the resource, the table, the timeout and the setting that bounds it; never a
 * credential.
 */
public class FenceLockTimeoutException extends FencingException {

    private static final long serialVersionUID = 1L;

    /** The setting's name in Spring Boot, named in the message. */
    public static final String PROPERTY = "hoplock.fence.lock-timeout";

    private final Duration timeout;

    public FenceLockTimeoutException(String resource, String table, Duration timeout, Throwable cause) {
        super(resource, "the fence check for '" + resource + "' in table " + table + " waited its whole lock timeout ("
                + dev.hoplock.core.time.HumanDurations.format(timeout) + ") for the fence row, which another"
                + " transaction holds and has not ended: most likely an earlier holder frozen inside its fenced"
                + " transaction (a GC pause, a stopped process), or a long fenced transaction of the same resource."
                + " The write did not proceed and the transaction must roll back. The wait is bounded by " + PROPERTY
                + " (JdbcFence.lockTimeout without Spring Boot); raise it only if fenced transactions of one"
                + " resource legitimately run longer than that", cause);
        this.timeout = timeout;
    }

    /** The lock timeout that passed. */
    public Duration timeout() {
        return timeout;
    }
}
