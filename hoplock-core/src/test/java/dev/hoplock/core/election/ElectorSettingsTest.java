package dev.hoplock.core.election;

import dev.hoplock.core.InvalidSettingException;
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

    @Test
    void theDefaultsAreDecidedInOneSettingsBuilderThatTheElectorBuilderUses() {
        ElectorSettings core = ElectorSettings.builder("k").owner("o").build();
        assertThat(Elector.builder(new InMemoryBackend(), "k").owner("o").settings()).isEqualTo(core);
        assertThat(core.ttl()).isEqualTo(ElectorSettings.DEFAULT_TTL);
        assertThat(core.renewInterval()).isEqualTo(ElectorSettings.defaultRenewInterval(core.ttl()));
        assertThat(core.pollInterval()).isEqualTo(ElectorSettings.defaultPollInterval(core.ttl()));
        assertThat(core.safetyMargin()).isEqualTo(ElectorSettings.defaultSafetyMargin(core.ttl()));
        assertThat(core.requestTimeout()).isEqualTo(core.renewInterval());
        assertThat(core.releaseTimeout()).isEqualTo(ElectorSettings.DEFAULT_RELEASE_TIMEOUT);
    }

    @Test
    @SuppressWarnings("NullAway") // passes null on purpose: the refusal of it is what this test checks
    void nullIsNeverADefaultButARefusalNamingTheSetting() {
        assertThatThrownBy(() -> ElectorSettings.builder("k").safetyMargin(null))
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("safetyMargin");
                    assertThat(e.reason()).isEqualTo("must not be null");
                })
                .hasMessageContaining("leave it unset to get its default");
        assertThatThrownBy(() -> builder.ttl(null))
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("ttl"));
    }

    @Test
    void aRefusedDurationCarriesTheValueAndTheLimitAsFields() {
        assertThatThrownBy(() -> builder.ttl(Duration.ofSeconds(10)).renewInterval(Duration.ofMillis(9500)).settings())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("renewInterval");
                    assertThat(e.rejectedValue()).isEqualTo(Duration.ofMillis(9500));
                    assertThat(e.limit()).isEqualTo(Duration.ofSeconds(9));
                    assertThat(e.reason()).startsWith("must be shorter than ttl minus safetyMargin");
                })
                .hasMessage("renewInterval (9.5s) must be shorter than ttl (10s) minus safetyMargin (1s), or the leader"
                        + " would stop before it renews; use ttl/3 or less");
        assertThatThrownBy(() -> Elector.builder(new InMemoryBackend(), "k").pollInterval(Duration.ZERO).settings())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.rejectedValue()).isEqualTo(Duration.ZERO);
                    assertThat(e.limit()).as("no bound beyond the reason itself").isNull();
                    assertThat(e.reason()).isEqualTo("must be positive");
                });
        assertThatThrownBy(() -> Elector.builder(new InMemoryBackend(), "k").ttl(Duration.ofDays(8)).settings())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.limit()).isEqualTo(ElectorSettings.MAX_DURATION);
                    assertThat(e.reason()).isEqualTo("must be at most 7 days");
                });
        assertThatThrownBy(() -> Elector.builder(new InMemoryBackend(), "k").safetyMargin(Duration.ofSeconds(30))
                .settings())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.rejectedValue()).isEqualTo(Duration.ofSeconds(30));
                    assertThat(e.limit()).isEqualTo(Duration.ofSeconds(30));
                });
    }
}
