package dev.hoplock.spring.autoconfigure.jdbc;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/**
 * The JDBC fence's settings, {@code hoplock.fence.*} (the fence of {@code @Fenced} methods, in the application's
 * database; it needs {@code dev.hoplock:hoplock-jdbc}), owned by {@link JdbcFenceConfiguration}: the fence table
 * ({@link DatabaseTableProperties}) and the bound on the wait for its row's lock ({@code lock-timeout}, validated at
 * start-up: at least 1ms). The table's descriptions and default name are in
 * {@code META-INF/additional-spring-configuration-metadata.json}.
 */
@ConfigurationProperties("hoplock.fence")
public class JdbcFenceProperties extends DatabaseTableProperties {

    /**
     * How long a fenced method's fence check waits for the fence row's lock, which another open fenced transaction
     * of the same resource holds (a frozen earlier holder: a GC pause, a stopped process); then the check fails, the
     * error naming this property, and the transaction rolls back. PostgreSQL lock_timeout, MariaDB/MySQL
     * innodb_lock_wait_timeout (whole seconds, rounded up) or H2 LOCK_TIMEOUT, for the fence statements only. At
     * least 1ms; a bare number is milliseconds.
     */
    private Duration lockTimeout = Duration.ofSeconds(5);

    public JdbcFenceProperties() {
        super("hoplock_fence");
    }

    public Duration getLockTimeout() {
        return lockTimeout;
    }

    public void setLockTimeout(Duration lockTimeout) {
        this.lockTimeout = lockTimeout;
    }
}
