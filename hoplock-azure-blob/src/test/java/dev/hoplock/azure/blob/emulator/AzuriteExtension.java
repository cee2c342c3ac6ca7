package dev.hoplock.azure.blob.emulator;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives test classes the one shared {@link Azurite} (as a constructor or method parameter) and stops it when the whole
 * test run ends, whether the tests passed or not (the root context's store closes it; a shutdown hook is the
 * fallback).
 */
public final class AzuriteExtension implements BeforeAllCallback, ParameterResolver {

    @Override
    public void beforeAll(ExtensionContext context) {
        azurite(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Azurite.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return azurite(context);
    }

    private static Azurite azurite(ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.create(AzuriteExtension.class))
                .computeIfAbsent("azurite", key -> new Running(Azurite.shared()), Running.class).azurite();
    }

    /** Stops the shared emulator when JUnit closes the root store at the end of the run. */
    private record Running(Azurite azurite) implements AutoCloseable {
        @Override
        public void close() {
            Azurite.stopShared();
        }
    }
}
