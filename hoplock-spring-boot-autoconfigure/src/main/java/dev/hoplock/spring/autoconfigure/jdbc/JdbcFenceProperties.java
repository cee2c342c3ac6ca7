package dev.hoplock.spring.autoconfigure.jdbc;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The JDBC fence's settings, {@code hoplock.fence.*} (the fence of {@code @Fenced} methods, in the application's
 * database; it needs {@code dev.hoplock:hoplock-jdbc}), owned by {@link JdbcFenceConfiguration}: the fence table
 * ({@link DatabaseTableProperties}). Its descriptions and default name are in
 * {@code META-INF/additional-spring-configuration-metadata.json}.
 */
@ConfigurationProperties("hoplock.fence")
public class JdbcFenceProperties extends DatabaseTableProperties {

    public JdbcFenceProperties() {
        super("hoplock_fence");
    }
}
