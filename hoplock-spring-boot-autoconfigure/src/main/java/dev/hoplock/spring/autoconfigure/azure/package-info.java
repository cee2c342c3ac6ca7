/**
 * The Azure Blob Storage store in a Spring Boot application, {@code hoplock.backend=azure-blob}: its configuration
 * ({@link dev.hoplock.spring.autoconfigure.azure.AzureBlobBackendConfiguration}), its settings
 * {@code hoplock.azure-blob.*} ({@link dev.hoplock.spring.autoconfigure.azure.AzureBlobProperties}), the reuse of the
 * application's {@code BlobContainerClient} or {@code BlobServiceClient} and the building of the store. Only this
 * package of the auto-configuration refers to {@code dev.hoplock:hoplock-azure-blob} (whose package is
 * {@code dev.hoplock.azure.blob}), and nothing here is loaded without it.
 *
 * <p>Nullness: every type, parameter and return value here is non-null unless marked {@code @Nullable}.
 */
@NullMarked
package dev.hoplock.spring.autoconfigure.azure;

import org.jspecify.annotations.NullMarked;
