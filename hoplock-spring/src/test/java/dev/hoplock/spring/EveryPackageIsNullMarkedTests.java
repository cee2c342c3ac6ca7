package dev.hoplock.spring;

import dev.hoplock.spring.leader.HoplockElections;
import dev.hoplock.test.NullMarkedPackages;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

/** Nullness is stated: every package of this module is {@link NullMarked} (nullable things say {@code @Nullable}). */
class EveryPackageIsNullMarkedTests {

    @Test
    void everyPackageOfTheModuleIsNullMarked() {
        NullMarkedPackages.assertEveryPackageOf(HoplockElections.class);
    }
}
