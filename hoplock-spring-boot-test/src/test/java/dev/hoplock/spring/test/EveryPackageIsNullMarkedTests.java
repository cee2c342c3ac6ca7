package dev.hoplock.spring.test;

import dev.hoplock.test.NullMarkedPackages;
import org.junit.jupiter.api.Test;

/** Nullness is stated: every package of this module is {@code @NullMarked}. */
class EveryPackageIsNullMarkedTests {

    @Test
    void everyPackageOfTheModuleIsNullMarked() {
        NullMarkedPackages.assertEveryPackageOf(HoplockTestControl.class);
    }
}
