package dev.hoplock.cli;

import dev.hoplock.core.election.ElectorSettings;
import dev.hoplock.spring.autoconfigure.ElectionProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;

import java.time.Duration;
import java.util.Map;

/**
 * The TTL to observe a key for when no {@code --ttl} is given, taken from the settings that say which TTL that key's
 * holders use: an election's key ({@code hoplock.elections.NAME.key}, else its name) takes that election's TTL
 * ({@code hoplock.elections.NAME.ttl}, else {@code hoplock.ttl}); a key under {@code <group>/members/} takes the
 * ownership TTL ({@code hoplock.ownership.ttl}, else the core's default); any other key {@code hoplock.ttl}. Named
 * locks choose their TTL per call, so for them this is only a default: it is never a promise about the holder.
 *
 * @param ttl    the TTL found
 * @param source the setting it came from, as the operator would write it
 */
record KeyTtl(Duration ttl, String source) {

    static KeyTtl forKey(Binder binder, String key) {
        Duration base = binder.bind("hoplock.ttl", Duration.class).orElse(ElectorSettings.DEFAULT_TTL);
        Map<String, ElectionProperties> elections = binder.bind("hoplock.elections",
                Bindable.mapOf(String.class, ElectionProperties.class)).orElse(Map.of());
        for (Map.Entry<String, ElectionProperties> election : elections.entrySet()) {
            ElectionProperties settings = election.getValue();
            String electionKey = settings.getKey() != null ? settings.getKey() : election.getKey();
            if (electionKey.equals(key)) {
                Duration own = settings.getTtl();
                return own != null ? new KeyTtl(own, "hoplock.elections." + election.getKey() + ".ttl")
                        : new KeyTtl(base, "hoplock.ttl");
            }
        }
        String group = binder.bind("hoplock.ownership.group", String.class).orElse(null);
        if (group != null && key.startsWith(group + "/members/")) {
            return binder.bind("hoplock.ownership.ttl", Duration.class)
                    .map(ttl -> new KeyTtl(ttl, "hoplock.ownership.ttl"))
                    .orElse(new KeyTtl(ElectorSettings.DEFAULT_TTL, "the ownership default"));
        }
        return new KeyTtl(base, "hoplock.ttl");
    }
}
