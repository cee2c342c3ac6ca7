package dev.hoplock.spring.observation;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.spring.leader.DelegatingBackend;

import java.util.Locale;

/**
 * The kind of store under a backend, as the {@code store} key names it: the innermost backend under every
 * {@link DelegatingBackend}, by its class ({@code S3Backend} is {@code s3}, {@code AzureBlobBackend}
 * {@code azure-blob}, {@code InMemoryBackend} {@code memory}; an application's own {@code OrdersBackend} is
 * {@code orders}). Never the store's address: {@link Backend#describe()} is not read.
 */
final class StoreKind {

    private StoreKind() {
    }

    static String of(Backend backend) {
        Backend inner = backend;
        while (inner instanceof DelegatingBackend decorator) {
            inner = decorator.delegate();
        }
        String name = inner.getClass().getSimpleName();
        if (name.endsWith("Backend")) {
            name = name.substring(0, name.length() - "Backend".length());
        }
        String kind = name.toLowerCase(Locale.ROOT);
        return switch (kind) {
            case "" -> "custom";
            case "inmemory" -> "memory";
            case "azureblob" -> "azure-blob";
            default -> kind;
        };
    }
}
