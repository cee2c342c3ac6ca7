package dev.hoplock.dynamodb.emulator;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives test classes the one shared {@link Dynalite} (as a constructor or method parameter) and stops it when the whole
 * test run ends, whether the tests passed or not (the root context's store closes it; a shutdown hook is the
 * fallback).
 */
public final class DynaliteExtension implements BeforeAllCallback, ParameterResolver {

    @Override
    public void beforeAll(ExtensionContext context) {
        dynalite(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Dynalite.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return dynalite(context);
    }

    private static Dynalite dynalite(ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.create(DynaliteExtension.class))
                .computeIfAbsent("dynalite", key -> new Running(Dynalite.shared()), Running.class).dynalite();
    }

    /** Stops the shared emulator when JUnit closes the root store at the end of the run. */
    private record Running(Dynalite dynalite) implements AutoCloseable {
        @Override
        public void close() {
            Dynalite.stopShared();
        }
    }
}
