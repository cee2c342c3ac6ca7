package dev.hoplock.elasticsearch;

import dev.hoplock.test.NullMarkedPackages;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Nullness is stated: every package of this module, {@code dev.hoplock.elasticsearch} among them, is {@link NullMarked} (what may be
 * null says {@code @Nullable}).
 */
class PackageIsNullMarkedTest {

    @Test
    void thePackageIsNullMarked() {
        assertThat(NullMarkedPackages.assertEveryPackageOf(ElasticsearchBackend.class)).contains("dev.hoplock.elasticsearch");
    }
}
