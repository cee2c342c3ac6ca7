package dev.hoplock.jdbc;

import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Nullness is stated: this module's package is {@link NullMarked} (what may be null says {@code @Nullable}). */
class PackageIsNullMarkedTest {

    @Test
    void thePackageIsNullMarked() {
        assertThat(JdbcBackend.class.getPackage().isAnnotationPresent(NullMarked.class)).isTrue();
    }
}
