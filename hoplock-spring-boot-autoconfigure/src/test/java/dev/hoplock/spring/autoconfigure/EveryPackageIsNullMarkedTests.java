package dev.hoplock.spring.autoconfigure;

import dev.hoplock.test.NullMarkedPackages;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

/** Nullness is stated: every package of this module is {@link NullMarked} (nullable things say {@code @Nullable}). */
class EveryPackageIsNullMarkedTests {

    @Test
    void everyPackageOfTheModuleIsNullMarked() {
        NullMarkedPackages.assertEveryPackageOf(HoplockProperties.class);
    }
}
