package dev.hoplock.core;

import dev.hoplock.core.backend.InMemoryBackend;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ElectorSettingsTest {

    private final Elector.Builder builder = Elector.builder(new InMemoryBackend(), "k");

    @Test
    void defaultsFollowGoHoplockAndScaleWithTheTtl() {
        ElectorSettings defaults = builder.settings();
        assertThat(defaults.ttl()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.renewInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.pollInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(defaults.releaseTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(defaults.safetyMargin()).isEqualTo(Duration.ofSeconds(3));
        assertThat(defaults.owner()).matches(".+:\\d+:[0-9a-f]{6}");
        ElectorSettings scaled = builder.ttl(Duration.ofSeconds(6)).settings();
        assertThat(scaled.renewInterval()).isEqualTo(Duration.ofSeconds(2));
        assertThat(scaled.pollInterval()).isEqualTo(Duration.ofMillis(400));
    }

    @Test
    void ownersAreUniquePerBuilderAndStableWithinOne() {
        assertThat(builder.settings().owner()).isEqualTo(builder.settings().owner());
        assertThat(Elector.builder(new InMemoryBackend(), "k").settings().owner()).isNotEqualTo(builder.settings().owner());
    }

    @Test
    void renewAtOrBeyondTheTtlIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> builder.renewInterval(Duration.ofSeconds(30)).settings())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("renewInterval"))
                .hasMessageContaining("must be shorter than ttl");
    }

    @Test
    void nonPositiveDurationsAreRefused() {
        assertThatThrownBy(() -> builder.pollInterval(Duration.ZERO).settings())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("pollInterval"));
        assertThatThrownBy(() -> Elector.builder(new InMemoryBackend(), "k").ttl(Duration.ofSeconds(-1)).settings())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("ttl"));
        assertThatThrownBy(() -> Elector.builder(new InMemoryBackend(), "k").safetyMargin(Duration.ofSeconds(40)).settings())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("safetyMargin"));
    }

    @Test
    void badKeysAndOwnersAreRefused() {
        assertThatThrownBy(() -> Elector.builder(new InMemoryBackend(), "../x").settings())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("key"));
        assertThatThrownBy(() -> builder.owner("").settings())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("owner"));
    }

    @Test
    void aNegativeReleaseTimeoutMeansSkipTheRelease() {
        assertThat(builder.releaseTimeout(Duration.ofSeconds(-1)).settings().releaseTimeout()).isNegative();
    }

    @Test
    void durationsAreCappedSoThatNoTimerCanOverflow() {
        assertThatThrownBy(() -> Elector.builder(new InMemoryBackend(), "k").ttl(Duration.ofDays(365)).settings())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("ttl"))
                .hasMessageContaining("8760h").hasMessageContaining("7 days");
        assertThatThrownBy(() -> builder.requestTimeout(Duration.ofSeconds(Long.MAX_VALUE)).settings())
                .isInstanceOfSatisfying(InvalidSettingException.class,
                        e -> assertThat(e.setting()).isEqualTo("requestTimeout"))
                .hasMessageContaining("7 days");
        assertThatThrownBy(() -> Elector.builder(new InMemoryBackend(), "k").releaseTimeout(Duration.ofDays(30)).settings())
                .isInstanceOfSatisfying(InvalidSettingException.class,
                        e -> assertThat(e.setting()).isEqualTo("releaseTimeout"));
        assertThatThrownBy(() -> Elector.builder(new InMemoryBackend(), "k").pollInterval(Duration.ofMinutes(1)).settings())
                .isInstanceOfSatisfying(InvalidSettingException.class,
                        e -> assertThat(e.setting()).isEqualTo("pollInterval"))
                .hasMessageContaining("1m").hasMessageContaining("30s");
    }
}
