package dev.hoplock.core.time;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class HumanDurationsTest {

    @Test
    void formatsEachRangeInItsOwnUnit() {
        assertThat(HumanDurations.format(Duration.ZERO)).isEqualTo("0ms");
        assertThat(HumanDurations.format(Duration.ofMillis(500))).isEqualTo("500ms");
        assertThat(HumanDurations.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
        assertThat(HumanDurations.format(Duration.ofSeconds(30))).isEqualTo("30s");
        assertThat(HumanDurations.format(Duration.ofMillis(1666))).isEqualTo("1.666s");
        assertThat(HumanDurations.format(Duration.ofSeconds(150))).isEqualTo("2m30s");
        assertThat(HumanDurations.format(Duration.ofHours(1).plusMinutes(5))).isEqualTo("1h5m");
        assertThat(HumanDurations.format(Duration.ofMillis(-250))).isEqualTo("-250ms");
    }
}
