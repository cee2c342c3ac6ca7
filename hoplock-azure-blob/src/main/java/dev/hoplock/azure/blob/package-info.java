/**
 * The Azure Blob Storage store: {@link dev.hoplock.azure.blob.AzureBlobBackend}, built with
 * {@link dev.hoplock.azure.blob.AzureBlobBackendBuilder}: one block blob per lease key under a container and prefix,
 * compare-and-swap by ETag ({@code If-None-Match: *} to create, {@code If-Match} to swap and delete).
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.azure.blob;

import org.jspecify.annotations.NullMarked;
