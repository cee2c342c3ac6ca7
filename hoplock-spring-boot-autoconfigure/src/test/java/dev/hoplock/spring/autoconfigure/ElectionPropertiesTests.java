package dev.hoplock.spring.autoconfigure;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** One {@link ElectionProperties} type for the inherited defaults and for each named election, merged in one place. */
class ElectionPropertiesTests {

    @Test
    void anElectionKeepsWhatItSetsAndInheritsTheRest() {
        HoplockProperties defaults = new HoplockProperties();
        defaults.setRenew(Duration.ofSeconds(7));
        defaults.setOwner("global-owner");
        ElectionProperties own = new ElectionProperties();
        own.setTtl(Duration.ofSeconds(12));
        own.setReleaseByDelete(true);

        ElectionProperties merged = own.over(defaults);

        assertThat(merged.getTtl()).isEqualTo(Duration.ofSeconds(12));
        assertThat(merged.getReleaseByDelete()).isTrue();
        assertThat(merged.getRenew()).isEqualTo(Duration.ofSeconds(7));
        assertThat(merged.getOwner()).isEqualTo("global-owner");
        assertThat(merged.getReleaseTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(merged.getPoll()).as("unset in both: the elector's default").isNull();
        assertThat(own.getRenew()).as("merging does not change the election's own properties").isNull();
    }

    @Test
    void everyElectionSettingIsAlsoAGlobalDefaultUnderTheSameName() {
        List<String> names = KnownProperties.ofHoplock().names();
        List<String> perElection = names.stream().filter(name -> name.startsWith("hoplock.elections.*."))
                .map(name -> name.substring("hoplock.elections.*.".length())).toList();

        assertThat(perElection).containsExactlyInAnyOrder("key", "owner", "ttl", "renew", "poll", "request-timeout",
                "safety-margin", "release-timeout", "release-by-delete");
        assertThat(names).containsAll(perElection.stream().map(name -> "hoplock." + name).toList());
    }
}
