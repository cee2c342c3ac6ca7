package dev.hoplock.elasticsearch;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.elasticsearch.node.Gateway;
import dev.hoplock.elasticsearch.node.OpenSearchExtension;
import dev.hoplock.elasticsearch.node.OpenSearchNode;
import dev.hoplock.elasticsearch.node.RawHttp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Every way the start-up check fails, each against the real node (behind a {@link Gateway} that plays the security
 * layer, a rewriting proxy, a wrong server or a dead peer): the kind, and a message that names the endpoint, the
 * index and the fix, and never a credential.
 */
@ExtendWith(OpenSearchExtension.class)
class StartupCheckTest {

    private static final String USER = "hoplock";
    private static final String PASSWORD = "pw-Zq9-never-print-me";

    private final OpenSearchNode node;
    private final RawHttp raw;
    private Gateway gateway;
    private String index;

    StartupCheckTest(OpenSearchNode node) {
        this.node = node;
        this.raw = new RawHttp(node);
    }

    @BeforeEach
    void setUp() throws Exception {
        gateway = Gateway.to(node);
        index = TestSearch.uniqueIndex("startup");
    }

    @AfterEach
    void tearDown() {
        gateway.close();
    }

    @Test
    void aGoodClusterPassesCreatesTheIndexWithTheFixedMappingAndLeavesNoProbeBehind() throws Exception {
        try (ElasticsearchBackend backend = builder().build()) {
            assertThat(backend.describe()).contains("index " + index).contains("OpenSearch 2.19.6");
        }
        RawHttp.Answer mapping = raw.get("/" + index + "/_mapping");
        assertThat(mapping.body()).contains("\"dynamic\":\"strict\"").contains("\"generation\":{\"type\":\"long\"}")
                .contains("\"expires_at\":{\"type\":\"date\"").contains("\"record_base64\":{\"type\":\"binary\"}");
        assertThat(raw.get("/" + index + "/_settings").body()).contains("\"number_of_shards\":\"1\"");
        raw.get("/" + index + "/_refresh");
        assertThat(raw.get("/" + index + "/_count").body()).as("the probe document is removed")
                .contains("\"count\":0");
    }

    @Test
    void theCheckRunsOncePerBackendSoVerifyAfterBuildSendsNothing() throws Exception {
        try (ElasticsearchBackend backend = builder().build()) {
            List<String> atBuild = gateway.requests();

            StoreCapabilities first = backend.verify();
            StoreCapabilities second = backend.verify();

            assertThat(atBuild).as("the check at build").contains("GET /", "HEAD /" + index);
            assertThat(gateway.requests()).as("no request after build").isEqualTo(atBuild);
            assertThat(second).isSameAs(first);
            assertThat(first.store()).contains("OpenSearch 2.19.6");
        }
    }

    @Test
    void aFailedCheckIsNotRememberedAndRunsAgainOnTheNextVerify() throws Exception {
        gateway.notSearch();
        try (ElasticsearchBackend backend = builder().verify(false).build()) {
            assertThat(gateway.requests()).as("verify(false): nothing at build").isEmpty();
            BackendException e = catchThrowableOfType(BackendException.class, backend::verify);
            assertThat(e.kind()).isEqualTo(Kind.MISCONFIGURED);

            gateway.searchAgain();
            StoreCapabilities passed = backend.verify();
            int afterPassing = gateway.requests().size();

            assertThat(backend.verify()).isSameAs(passed);
            assertThat(gateway.requests()).hasSize(afterPassing);
            assertThat(gateway.requests()).filteredOn("GET /"::equals).as("one failed run, one that passed").hasSize(2);
        }
    }

    @Test
    void anUnreachableEndpointIsNamedWithoutItsCredentials() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        BackendException e = failure(ElasticsearchBackend.builder()
                .endpoint("http://" + USER + ":" + PASSWORD + "@127.0.0.1:" + closedPort).index(index));

        assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
        assertThat(e.getMessage()).contains("http://127.0.0.1:" + closedPort).contains("index " + index)
                .contains("check the endpoint");
        assertNoSecret(e);
    }

    @Test
    void wrongCredentialsAreAccessDeniedAndTheRightOnesWork() throws Exception {
        gateway.requireBasicAuth(USER, PASSWORD);

        BackendException e = failure(builder().basicAuth(USER, "wrong-" + PASSWORD));

        assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED);
        assertThat(refusal(e)).isEqualTo(SearchAnswerException.Refusal.CREDENTIALS_REFUSED);
        assertThat(e.getMessage()).contains("HTTP 401").contains(gateway.endpoint().toString())
                .contains("index " + index).contains("check the user name and password");
        assertThat(e.getMessage()).as("the gateway echoed the header; the message keeps the reason, not the header")
                .contains("unable to authenticate user").contains("[redacted]")
                .doesNotContain("wrong-" + PASSWORD).doesNotContain(basic("wrong-" + PASSWORD));
        assertNoSecret(e);

        try (ElasticsearchBackend backend = builder().basicAuth(USER, PASSWORD).build()) {
            assertThat(backend.toString()).doesNotContain(PASSWORD);
        }
        assertThat(gateway.authorizations()).last().isEqualTo("Basic " + basic(PASSWORD));
    }

    @Test
    void credentialsInTheEndpointUrlAreUsedAsBasicAuthAndNeverShown() throws Exception {
        gateway.requireBasicAuth(USER, PASSWORD);
        String url = "http://" + USER + ":" + PASSWORD + "@127.0.0.1:" + gateway.endpoint().getPort();

        try (ElasticsearchBackend backend = ElasticsearchBackend.builder().endpoint(url).index(index).build()) {
            assertThat(backend.describe()).contains("http://127.0.0.1:" + gateway.endpoint().getPort())
                    .doesNotContain(PASSWORD).doesNotContain(USER + ":");
            assertThat(backend.toString()).doesNotContain(PASSWORD);
        }
    }

    @Test
    void aUserWhoMayNotCreateTheIndexIsToldToCreateItOrGrantCreateIndex() {
        gateway.forbid("PUT", "/" + index);

        BackendException e = failure(builder());

        assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED);
        assertThat(refusal(e)).isEqualTo(SearchAnswerException.Refusal.PRIVILEGE_MISSING);
        assertThat(e.getMessage()).contains("HTTP 403").contains("index " + index).contains("create_index")
                .contains("mapping in the hoplock README");
    }

    @Test
    void aUserWhoMayNotWriteDocumentsIsToldWhichPrivilegesToGrant() {
        gateway.forbid("PUT", "/" + index + "/_doc");

        BackendException e = failure(builder());

        assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED);
        assertThat(refusal(e)).isEqualTo(SearchAnswerException.Refusal.PRIVILEGE_MISSING);
        assertThat(e.getMessage()).contains("HTTP 403").contains("security_exception").contains("index " + index)
                .contains("grant the index privileges read, index, delete");
    }

    @Test
    void aUserWithoutTheMonitorPrivilegeStillPasses() throws Exception {
        gateway.forbid("GET", "/");

        try (ElasticsearchBackend backend = builder().build()) {
            assertThat(backend.describe()).contains("version unknown");
        }
    }

    @Test
    void aMissingIndexWithCreationSwitchedOffIsAMissingContainer() {
        BackendException e = failure(builder().createIndex(false));

        assertThat(e.kind()).isEqualTo(Kind.MISSING_CONTAINER);
        assertThat(e.getMessage()).contains("index " + index).contains("does not exist")
                .contains("mapping in the hoplock README").contains("createIndex(true)");
    }

    @Test
    void anIndexWithAForeignMappingIsRefusedWithTheFix() throws Exception {
        assertThat(raw.put("/" + index, "{\"mappings\":{\"dynamic\":\"strict\",\"properties\":{"
                + "\"owner\":{\"type\":\"keyword\"}}}}").status()).isEqualTo(200);

        BackendException e = failure(builder());

        assertThat(e.kind()).isEqualTo(Kind.MISCONFIGURED);
        assertThat(refusal(e)).isEqualTo(SearchAnswerException.Refusal.FOREIGN_MAPPING);
        assertThat(e.getMessage()).contains("HTTP 400").contains("strict_dynamic_mapping_exception")
                .contains("index " + index).contains("point hoplock at a new index name");
    }

    @Test
    void aStoreThatIgnoresTheConditionsIsRefused() {
        gateway.stripConditions();

        BackendException e = failure(builder());

        assertThat(e.kind()).isEqualTo(Kind.CONDITIONAL_WRITES_NOT_SUPPORTED);
        assertThat(e.getMessage()).contains("index " + index).contains(gateway.endpoint().toString())
                .contains("accepted a second create").contains("two leaders could coexist").contains("verify(false)");
    }

    /** Issue 19 defect 4: the swap and delete are a scripted update; a cluster that refuses it is named, with the fix. */
    @Test
    void aClusterThatRefusesInlineScriptsIsToldToAllowThem() {
        gateway.refuseScripts();

        BackendException e = failure(builder());

        assertThat(e.kind()).isEqualTo(Kind.MISCONFIGURED);
        assertThat(refusal(e)).isEqualTo(SearchAnswerException.Refusal.SCRIPTS_REFUSED);
        assertThat(e.getMessage()).contains("HTTP 400").contains("cannot execute [inline] scripts")
                .contains("index " + index).contains("script.allowed_types").contains("script.allowed_contexts")
                .contains("re-created index");
    }

    /** An index made by an earlier hoplock lacks the write id's field: the message gives the one request that adds it. */
    @Test
    void anIndexWithoutTheWriteIdFieldIsToldHowToAddIt() throws Exception {
        String earlier = LeaseDocument.INDEX_DEFINITION.replaceAll(",\\s*\"write_id\":\\{[^}]*}", "");
        assertThat(earlier).doesNotContain("write_id");
        assertThat(raw.put("/" + index, earlier).status()).isEqualTo(200);

        BackendException e = failure(builder());

        assertThat(e.kind()).isEqualTo(Kind.MISCONFIGURED);
        assertThat(refusal(e)).isEqualTo(SearchAnswerException.Refusal.FOREIGN_MAPPING);
        assertThat(e.getMessage()).contains("HTTP 400").contains("lacks the field write_id")
                .contains("PUT /" + index + "/_mapping " + LeaseDocument.WRITE_ID_MAPPING);

        assertThat(raw.put("/" + index + "/_mapping", LeaseDocument.WRITE_ID_MAPPING).status())
                .as("the request the message gives").isEqualTo(200);
        try (ElasticsearchBackend backend = builder().build()) {
            assertThat(backend.describe()).contains(index);
        }
    }

    @Test
    void aServerThatIsNoSearchClusterIsNamed() {
        gateway.notSearch();

        BackendException e = failure(builder());

        assertThat(e.kind()).isEqualTo(Kind.MISCONFIGURED);
        assertThat(refusal(e)).isEqualTo(SearchAnswerException.Refusal.NOT_A_SEARCH_ANSWER);
        assertThat(e.getMessage()).contains(gateway.endpoint().toString()).contains("not Elasticsearch or OpenSearch")
                .contains("check the endpoint");
    }

    @Test
    void aClusterThatNeverAnswersFailsWithinTheRequestTimeout() {
        gateway.hang();
        long started = System.nanoTime();

        BackendException e = failure(builder().requestTimeout(Duration.ofMillis(500)));

        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
        assertThat(e.getMessage()).contains("no answer within").contains(gateway.endpoint().toString());
        assertThat(took).as("bounded by the request timeout, not by the gateway").isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aSlowIndexCreationIsGivenMoreThanTheRequestTimeout() throws Exception {
        // A busy cluster answers the index creation only once the new shard has started: seconds, not milliseconds.
        // A 5 s request timeout (what the starter passed when the autoconfigure tests saw this); the gateway holds
        // the creation a second longer than that.
        gateway.slow("PUT", "/" + index, Duration.ofSeconds(6));

        try (ElasticsearchBackend backend = builder().requestTimeout(Duration.ofSeconds(5)).build()) {
            assertThat(backend.describe()).contains("index " + index);
        }
        assertThat(raw.get("/" + index + "/_mapping").body()).as("the index was created")
                .contains("\"dynamic\":\"strict\"");
    }

    /** Which refusal the exception carries as a field (what a configuration layer reads instead of the message). */
    private static SearchAnswerException.Refusal refusal(BackendException e) {
        assertThat(e).isInstanceOf(SearchAnswerException.class);
        return ((SearchAnswerException) e).refusal();
    }

    private ElasticsearchBackendBuilder builder() {
        return ElasticsearchBackend.builder().endpoint(gateway.endpoint()).index(index)
                .requestTimeout(TestSearch.TIMEOUT);
    }

    private static BackendException failure(ElasticsearchBackendBuilder builder) {
        BackendException e = catchThrowableOfType(BackendException.class, builder::build);
        assertThat(e).as("build() must fail").isNotNull();
        return e;
    }

    private static void assertNoSecret(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            assertThat(String.valueOf(t.getMessage())).doesNotContain(PASSWORD).doesNotContain(basic(PASSWORD));
        }
    }

    private static String basic(String password) {
        return Base64.getEncoder().encodeToString((USER + ":" + password).getBytes(UTF_8));
    }
}
