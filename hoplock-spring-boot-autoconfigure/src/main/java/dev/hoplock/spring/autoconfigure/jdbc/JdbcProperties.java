package dev.hoplock.spring.autoconfigure.jdbc;

import dev.hoplock.jdbc.JdbcBackend;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DurationUnit;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The JDBC store's settings, {@code hoplock.jdbc.*} (the store needs {@code dev.hoplock:hoplock-jdbc} and a
 * {@code DataSource}), owned by {@link JdbcBackendConfiguration}: the lease table ({@link DatabaseTableProperties})
 * and the statement timeout.
 */
@ConfigurationProperties("hoplock.jdbc")
public class JdbcProperties extends DatabaseTableProperties {

    /**
     * The longest one statement of the store may take; the elector's own, usually shorter, budget applies within
     * it. Without a unit: seconds.
     */
    @DurationUnit(ChronoUnit.SECONDS)
    private Duration requestTimeout = Duration.ofSeconds(JdbcBackend.DEFAULT_REQUEST_TIMEOUT_SECONDS);

    public JdbcProperties() {
        super("hoplock_lease");
    }

    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }
}
