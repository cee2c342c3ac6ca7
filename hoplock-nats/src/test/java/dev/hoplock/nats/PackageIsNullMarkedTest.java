package dev.hoplock.nats;

import dev.hoplock.test.NullMarkedPackages;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Nullness is stated: every package of this module, {@code dev.hoplock.nats} among them, is {@link NullMarked}. */
class PackageIsNullMarkedTest {

    @Test
    void thePackageIsNullMarked() {
        assertThat(NullMarkedPackages.assertEveryPackageOf(NatsBackend.class)).contains("dev.hoplock.nats");
    }
}
