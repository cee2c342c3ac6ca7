package dev.hoplock.test;

import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nullness is stated: every package of this module, {@code dev.hoplock.test} among them, is {@link NullMarked} (what may be
 * null says {@code @Nullable}).
 */
class PackageIsNullMarkedTest {

    @Test
    void thePackageIsNullMarked() {
        assertThat(NullMarkedPackages.assertEveryPackageOf(BackendContractTest.class)).contains("dev.hoplock.test", "dev.hoplock.test.process");
    }
}
