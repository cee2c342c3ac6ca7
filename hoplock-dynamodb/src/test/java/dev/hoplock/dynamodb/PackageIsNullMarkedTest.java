package dev.hoplock.dynamodb;

import dev.hoplock.test.NullMarkedPackages;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Nullness is stated: every package of this module is {@link NullMarked} (what may be null says {@code @Nullable}). */
class PackageIsNullMarkedTest {

    @Test
    void thePackageIsNullMarked() {
        assertThat(NullMarkedPackages.assertEveryPackageOf(DynamoDbBackend.class)).contains("dev.hoplock.dynamodb");
    }
}
