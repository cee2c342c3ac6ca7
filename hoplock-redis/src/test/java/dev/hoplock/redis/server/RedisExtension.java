package dev.hoplock.redis.server;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test one {@link RedisServer} per test JVM (started on first use, killed when the JVM's tests end), as a
 * constructor or method parameter. Tests share it; each uses keys, a prefix or a database of its own.
 */
public final class RedisExtension implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RedisServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.create(RedisExtension.class))
                .getOrComputeIfAbsent("server", k -> new Shared(), Shared.class).server;
    }

    /** The shared server, killed by JUnit when the root context closes. */
    static final class Shared implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        final RedisServer server;

        Shared() {
            try {
                server = RedisServer.start();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public void close() {
            server.close();
        }
    }
}
