package dev.hoplock.spring.autoconfigure;

import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.ElectorSettings;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.elasticsearch.ElasticsearchBackendBuilder;
import dev.hoplock.jdbc.JdbcBackend;
import dev.hoplock.s3.S3BackendBuilder;
import dev.hoplock.spring.autoconfigure.elasticsearch.ElasticsearchProperties;
import dev.hoplock.spring.autoconfigure.jdbc.JdbcProperties;
import dev.hoplock.spring.autoconfigure.s3.S3Properties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.mock.env.MockEnvironment;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The starter repeats no default: with nothing configured, its electors get exactly the core's settings. */
class StarterDefaultsTests {

    @Test
    void anEmptyEnvironmentGivesTheCoresDefaults() {
        HoplockProperties bound = Binder.get(new MockEnvironment()).bindOrCreate("hoplock", HoplockProperties.class);
        List<ElectionDefinition> elections = ElectionDefinitions.resolve(bound, "owner-1");
        assertThat(elections).hasSize(1);
        ElectionDefinition election = elections.get(0);

        ElectorSettings starter = election.applyTo(Elector.builder(new InMemoryBackend(), election.key())).settings();
        ElectorSettings core = ElectorSettings.builder(HoplockProperties.DEFAULT_ELECTION).owner("owner-1").build();

        assertThat(starter).isEqualTo(core);
        assertThat(bound.getTtl()).isEqualTo(ElectorSettings.DEFAULT_TTL);
        assertThat(bound.getReleaseTimeout()).isEqualTo(ElectorSettings.DEFAULT_RELEASE_TIMEOUT);
        assertThat(bound.getRenew()).as("derived in the core, not repeated here").isNull();
        assertThat(bound.getPoll()).isNull();
        assertThat(bound.getSafetyMargin()).isNull();
        assertThat(bound.getRequestTimeout()).isNull();
    }

    @Test
    void theStoresTimeoutsAreTheStoresOwnDefaults() {
        Binder binder = Binder.get(new MockEnvironment());
        S3Properties s3 = binder.bindOrCreate("hoplock.s3", S3Properties.class);
        JdbcProperties jdbc = binder.bindOrCreate("hoplock.jdbc", JdbcProperties.class);
        ElasticsearchProperties elasticsearch = binder.bindOrCreate("hoplock.elasticsearch",
                ElasticsearchProperties.class);

        assertThat(s3.getApiCallTimeout()).isEqualTo(S3BackendBuilder.DEFAULT_REQUEST_TIMEOUT);
        assertThat(s3.getConnectTimeout()).isEqualTo(S3BackendBuilder.DEFAULT_CONNECT_TIMEOUT);
        assertThat(jdbc.getRequestTimeout()).isEqualTo(JdbcBackend.DEFAULT_REQUEST_TIMEOUT);
        assertThat(elasticsearch.getRequestTimeout())
                .isEqualTo(ElasticsearchBackendBuilder.DEFAULT_REQUEST_TIMEOUT);
        assertThat(elasticsearch.getConnectTimeout())
                .isEqualTo(ElasticsearchBackendBuilder.DEFAULT_CONNECT_TIMEOUT);
    }
}
