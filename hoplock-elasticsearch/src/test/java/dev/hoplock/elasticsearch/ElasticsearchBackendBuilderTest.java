package dev.hoplock.elasticsearch;

import dev.hoplock.core.InvalidSettingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Settings are checked before anything is sent, with messages that name the setting and the fix. */
class ElasticsearchBackendBuilderTest {

    private static final String SECRET = "pw-Zq9-never-print-me";

    @Test
    void withoutEndpointOrTransportBuildSaysWhatToSet() {
        assertThatThrownBy(() -> ElasticsearchBackend.builder().build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("endpoint"))
                .hasMessageContaining("no Elasticsearch / OpenSearch endpoint configured")
                .hasMessageContaining("endpoint(\"https://host:9200\")");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ftp://host:9200", "localhost:9200", "http:///nohost", "http://host:9200/?pretty"})
    void anEndpointThatIsNoHttpUrlIsRefused(String endpoint) {
        assertThatThrownBy(() -> ElasticsearchBackend.builder().endpoint(endpoint).build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("endpoint"))
                .hasMessageContaining("must be an http:// or https:// URL with a host");
    }

    @Test
    void anUnparsableEndpointIsRefusedWithoutItsUserInfo() {
        assertThatThrownBy(() -> ElasticsearchBackend.builder().endpoint("http://u:" + SECRET + "@ho st:9200").build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("endpoint"))
                .hasMessageContaining("is not a URL").hasMessageNotContaining(SECRET);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Leases", "_leases", "-leases", "+leases", "a b", "a/b", "a*b", "a,b", "..", "."})
    void anInvalidIndexNameIsRefusedWithTheRule(String index) {
        assertThatThrownBy(() -> ElasticsearchBackend.builder().endpoint("http://127.0.0.1:9200").index(index).build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("index"))
                .hasMessageContaining("index name '" + index + "' is invalid")
                .hasMessageContaining("lower case");
    }

    @Test
    void credentialsTwiceAreRefused() {
        assertThatThrownBy(() -> ElasticsearchBackend.builder().endpoint("http://u:p@127.0.0.1:9200")
                .basicAuth("u", "p").build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("basicAuth"))
                .hasMessageContaining("credentials are given twice");
        assertThatThrownBy(() -> ElasticsearchBackend.builder().endpoint("http://127.0.0.1:9200")
                .basicAuth("u", "p").apiKey("a2V5").build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> assertThat(e.setting()).isEqualTo("apiKey"))
                .hasMessageContaining("keep one");
    }

    @Test
    void aTransportExcludesTheClientSettings() {
        HttpTransport transport = new JdkHttpTransport(java.net.URI.create("http://127.0.0.1:9200"), null,
                Duration.ofSeconds(1), null);
        assertThatThrownBy(() -> ElasticsearchBackend.builder().transport(transport).basicAuth("u", "p").build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("an HttpTransport was given");
    }

    @Test
    void timeoutsMustBePositive() {
        assertThatThrownBy(() -> ElasticsearchBackend.builder().endpoint("http://127.0.0.1:9200")
                .requestTimeout(Duration.ZERO).build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("requestTimeout");
                    assertThat(e.rejectedValue()).isEqualTo(Duration.ZERO);
                })
                .hasMessageContaining("requestTimeout must be positive");
    }

    @Test
    void noStringShowsTheCredentials() throws Exception {
        ElasticsearchBackendBuilder builder = ElasticsearchBackend.builder()
                .endpoint("https://hoplock:" + SECRET + "@search.example.com:9200/es/").index("leases").verify(false);
        assertThat(builder.toString()).contains("https://search.example.com:9200/es/").contains("with credentials")
                .doesNotContain(SECRET);

        try (ElasticsearchBackend backend = builder.build()) {
            assertThat(backend.describe()).isEqualTo("elasticsearch index leases at https://search.example.com:9200/es");
            assertThat(backend.toString()).doesNotContain(SECRET).doesNotContain("hoplock:");
            assertThat(backend.endpoint()).isEqualTo("https://search.example.com:9200/es");
        }
        ElasticsearchBackendBuilder apiKey = ElasticsearchBackend.builder().endpoint("http://127.0.0.1:9200")
                .apiKey(SECRET).verify(false);
        try (ElasticsearchBackend backend = apiKey.build()) {
            assertThat(apiKey.toString() + backend + backend.describe()).doesNotContain(SECRET);
        }
    }
}
