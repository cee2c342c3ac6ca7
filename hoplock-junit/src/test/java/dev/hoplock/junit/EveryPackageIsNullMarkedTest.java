package dev.hoplock.junit;

import dev.hoplock.test.NullMarkedPackages;
import org.junit.jupiter.api.Test;

/** Nullness is stated: every package of this module is {@code @NullMarked}. */
class EveryPackageIsNullMarkedTest {

    @Test
    void everyPackageOfTheModuleIsNullMarked() {
        NullMarkedPackages.assertEveryPackageOf(HoplockControl.class);
    }
}
