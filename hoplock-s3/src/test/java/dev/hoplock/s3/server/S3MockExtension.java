package dev.hoplock.s3.server;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives test classes the one shared {@link S3MockServer} (as a constructor or method parameter) and stops it when
 * the whole test run ends, whether the tests passed or not.
 *
 * <p>The server is registered in the root context's store, which JUnit closes once after the last test class; the
 * server's own shutdown hook is the fallback when the JVM ends without that.
 */
public final class S3MockExtension implements BeforeAllCallback, ParameterResolver {

    @Override
    public void beforeAll(ExtensionContext context) {
        server(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == S3MockServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return server(context);
    }

    private static S3MockServer server(ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.create(S3MockExtension.class))
                .computeIfAbsent("server", key -> new Running(S3MockServer.shared()), Running.class)
                .server();
    }

    /** Stops the shared server when JUnit closes the root store at the end of the run. */
    private record Running(S3MockServer server) implements AutoCloseable {
        @Override
        public void close() {
            S3MockServer.stopShared();
        }
    }
}
