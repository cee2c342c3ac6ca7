/**
 * The test harness of the Azure Blob store: Azurite installed from npm and started on a free loopback port, and its
 * JUnit extension. Published in this module's test-jar for other modules' tests.
 */
@NullMarked
package dev.hoplock.azure.blob.emulator;

import org.jspecify.annotations.NullMarked;
