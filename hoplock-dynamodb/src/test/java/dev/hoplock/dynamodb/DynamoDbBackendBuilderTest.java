package dev.hoplock.dynamodb;

import dev.hoplock.core.InvalidSettingException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.net.URI;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Settings that cannot work are refused by {@link DynamoDbBackendBuilder#build()} before any request, naming them. */
class DynamoDbBackendBuilderTest {

    @Test
    void aMissingTableIsNamed() {
        InvalidSettingException e = refused(DynamoDbBackend.builder().region("eu-west-1"));

        assertThat(e.setting()).isEqualTo("table");
        assertThat(e.getMessage()).contains("no DynamoDB table configured", "table(\"...\")");
    }

    @Test
    void anInvalidTableNameIsRefused() {
        InvalidSettingException e = refused(DynamoDbBackend.builder().region("eu-west-1").table("my table"));

        assertThat(e.setting()).isEqualTo("table");
        assertThat(e.getMessage()).contains("3 to 255 letters");
    }

    @Test
    void aKeyAttributeThatIsOneOfHoplocksOwnIsRefused() {
        InvalidSettingException e = refused(DynamoDbBackend.builder().region("eu-west-1").table("leases")
                .keyAttribute("version"));

        assertThat(e.setting()).isEqualTo("keyAttribute");
        assertThat(e.getMessage()).contains("neither 'record' nor 'version'");
    }

    @Test
    void anEndpointWithCredentialsIsRefusedWithoutShowingThem() {
        InvalidSettingException e = refused(DynamoDbBackend.builder().table("leases")
                .endpoint("http://user:s3cr3tPassw0rd@127.0.0.1:8000"));

        assertThat(e.setting()).isEqualTo("endpoint");
        assertThat(e.getMessage()).contains("must not carry credentials").doesNotContain("s3cr3tPassw0rd");
    }

    /**
     * An AWS secret key often contains '/', which ends the URL's authority: the URI then has no user info and no
     * host, and the refusal must still not show the text after the '/'.
     */
    @Test
    void anEndpointWithASecretKeyContainingASlashIsRefusedWithoutShowingIt() {
        InvalidSettingException e = refused(DynamoDbBackend.builder().table("leases")
                .endpoint("http://AKIAHOPLOCK:wJalrXUtnFEMI/K7MDENG/bPxRfiCY@127.0.0.1:8000"));

        assertThat(e.setting()).isEqualTo("endpoint");
        assertThat(chain(e)).allSatisfy(text -> assertThat(text).doesNotContain("wJalrXUtnFEMI", "K7MDENG",
                "bPxRfiCY"));
        assertThat(e.getMessage()).contains("http://127.0.0.1:8000");
    }

    /** A URL that does not parse: the URI parser's message (a cause) quotes the whole text, password included. */
    @Test
    void anUnparsableEndpointWithCredentialsIsRefusedWithoutShowingThemInTheCause() {
        InvalidSettingException e = catchThrowableOfType(InvalidSettingException.class, () -> DynamoDbBackend.builder()
                .table("leases").endpoint("http://AKIAHOPLOCK:s3cr3t Passw0rd@127.0.0.1:8000").build());

        assertThat(e).as("the endpoint must be refused").isNotNull();
        assertThat(e.setting()).isEqualTo("endpoint");
        assertThat(chain(e)).allSatisfy(text -> assertThat(text).doesNotContain("s3cr3t", "Passw0rd"));
        assertThat(e.getMessage()).contains("is not a URL");
    }

    /** A query string can carry a pre-signed token: it is never shown either. */
    @Test
    void anEndpointWithAQueryIsShownWithoutIt() {
        InvalidSettingException e = refused(DynamoDbBackend.builder().table("leases")
                .endpoint("ftp://127.0.0.1:8000/?X-Amz-Security-Token=FwoGZXIvhoplocktoken"));

        assertThat(chain(e)).allSatisfy(text -> assertThat(text).doesNotContain("FwoGZXIvhoplocktoken"));
    }

    private static java.util.List<String> chain(Throwable e) {
        java.util.List<String> texts = new java.util.ArrayList<>();
        for (Throwable t = e; t != null; t = t.getCause()) {
            texts.add(String.valueOf(t.getMessage()));
            texts.add(t.toString());
            if (t instanceof InvalidSettingException setting) {
                texts.add(String.valueOf(setting.rejectedValue()));
            }
        }
        return texts;
    }

    @Test
    void anInvalidRegionIsRefused() {
        InvalidSettingException e = refused(DynamoDbBackend.builder().table("leases").region("EU West"));

        assertThat(e.setting()).isEqualTo("region");
    }

    @Test
    void anApplicationClientWithTheBuildersOwnClientSettingsIsRefused() {
        try (DynamoDbClient client = client()) {
            InvalidSettingException e = refused(DynamoDbBackend.builder().client(client).table("leases")
                    .region("eu-west-1"));

            assertThat(e.setting()).isEqualTo("region");
            assertThat(e.getMessage()).contains("come from that client");
        }
    }

    @Test
    void anApplicationClientIsUsedAsItIsAndNeverClosed() throws Exception {
        try (DynamoDbClient client = client()) {
            try (DynamoDbBackend backend = DynamoDbBackend.builder().client(client).table("leases").prefix("p/")
                    .verify(false).build()) {
                assertThat(backend.describe()).isEqualTo("dynamodb table leases (keys p/*) at http://127.0.0.1:8000");
            }
            assertThat(client.serviceClientConfiguration().region()).isEqualTo(Region.EU_WEST_1);
        }
    }

    @Test
    void aNonPositiveTimeoutIsRefused() {
        InvalidSettingException e = refused(DynamoDbBackend.builder().table("leases").region("eu-west-1")
                .requestTimeout(Duration.ofMillis(-1)));

        assertThat(e.setting()).isEqualTo("requestTimeout");
    }

    private static DynamoDbClient client() {
        return DynamoDbClient.builder().region(Region.EU_WEST_1).endpointOverride(URI.create("http://127.0.0.1:8000"))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .httpClientBuilder(UrlConnectionHttpClient.builder()).build();
    }

    private static InvalidSettingException refused(DynamoDbBackendBuilder builder) {
        InvalidSettingException e = catchThrowableOfType(InvalidSettingException.class, builder::build);
        assertThat(e).as("build() must refuse the settings").isNotNull();
        return e;
    }
}
