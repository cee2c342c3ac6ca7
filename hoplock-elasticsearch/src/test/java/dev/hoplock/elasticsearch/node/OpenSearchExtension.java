package dev.hoplock.elasticsearch.node;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives test classes the one shared {@link OpenSearchNode} (as a constructor or method parameter) and stops it when
 * the whole test run ends, whether the tests passed or not (the node's shutdown hook is the fallback).
 */
public final class OpenSearchExtension implements BeforeAllCallback, ParameterResolver {

    @Override
    public void beforeAll(ExtensionContext context) {
        node(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == OpenSearchNode.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return node(context);
    }

    private static OpenSearchNode node(ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.create(OpenSearchExtension.class))
                .computeIfAbsent("node", key -> new Running(OpenSearchNode.shared()), Running.class)
                .node();
    }

    /** Stops the shared node when JUnit closes the root store at the end of the run. */
    private record Running(OpenSearchNode node) implements AutoCloseable {
        @Override
        public void close() {
            OpenSearchNode.stopShared();
        }
    }
}
