package dev.hoplock.azure.blob;

import dev.hoplock.azure.blob.emulator.Azurite;
import dev.hoplock.azure.blob.emulator.AzuriteExtension;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.s3.server.FaultProxy;
import dev.hoplock.s3.server.FaultProxy.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.hoplock.azure.blob.TestAzure.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * No account key, SAS signature or request signature reaches a message, a cause, {@code toString()},
 * {@code describe()} or the log (everything this JVM writes to stderr while it runs, the Azure SDK's own loggers
 * included), even from a server that echoes the request's Authorization header and query in its error text, as Azure's
 * {@code AuthenticationFailed} answer echoes the request's signature.
 */
@ExtendWith(AzuriteExtension.class)
class AzureBlobSecretsTest {

    private final Azurite azurite;
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private PrintStream stderr;

    AzureBlobSecretsTest(Azurite azurite) {
        this.azurite = azurite;
    }

    @BeforeEach
    void captureTheLog() {
        stderr = System.err;
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreTheLog() {
        System.setErr(stderr);
        System.err.print(log.toString(StandardCharsets.UTF_8));
    }

    @Test
    void errorsFromAnEchoingServerCarryNoAccountKeyOrSignature() throws Exception {
        String container = azurite.newContainer("secrets");
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()))) {
            proxy.intercept(request -> echo(request.header("Authorization") + " " + request.path()));
            List<String> texts = new ArrayList<>();
            String connectionString = "DefaultEndpointsProtocol=http;AccountName=" + Azurite.ACCOUNT + ";AccountKey="
                    + Azurite.ACCOUNT_KEY + ";BlobEndpoint=" + proxy.endpoint() + "/" + Azurite.ACCOUNT + ";";
            try (AzureBlobBackend backend = AzureBlobBackend.builder().connectionString(connectionString)
                    .container(container).verifyConditionalWrites(false).build()) {
                texts.add(backend.toString());
                texts.add(backend.describe());
                texts.addAll(chain(catchThrowableOfType(BackendException.class,
                        () -> backend.read("k", Duration.ofSeconds(5)))));
                texts.addAll(chain(catchThrowableOfType(BackendException.class,
                        () -> backend.write("k", Handle.NONE, bytes("a"), Duration.ofSeconds(5)))));
            }
            texts.addAll(chain(catchThrowableOfType(BackendException.class,
                    () -> AzureBlobBackend.builder().connectionString(connectionString).container(container).build())));

            List<String> signatures = proxy.requests().stream()
                    .map(r -> r.header("Authorization").replaceAll(".*:", "")).toList();
            assertThat(signatures).as("the server received signed requests to echo").isNotEmpty()
                    .allSatisfy(signature -> assertThat(signature).hasSizeGreaterThan(20));
            assertThat(texts).hasSizeGreaterThan(4).allSatisfy(text -> assertThat(text)
                    .doesNotContain(Azurite.ACCOUNT_KEY).doesNotContain(signatures));
            assertThat(log.toString(StandardCharsets.UTF_8)).doesNotContain(Azurite.ACCOUNT_KEY)
                    .doesNotContain(signatures);
        }
    }

    @Test
    void errorsFromAnEchoingServerCarryNoSasSignature() throws Exception {
        String container = azurite.newContainer("secrets");
        String sas = AzureTestSas.forContainer(azurite, container, "rcwd");
        String signature = AzureTestSas.signature(sas);
        try (FaultProxy proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + azurite.port()))) {
            proxy.intercept(request -> echo(request.path()));
            List<String> texts = new ArrayList<>();
            try (AzureBlobBackend backend = AzureBlobBackend.builder()
                    .endpoint(proxy.endpoint() + "/" + Azurite.ACCOUNT).sasToken(sas).container(container)
                    .verifyConditionalWrites(false).build()) {
                texts.add(backend.toString());
                texts.add(backend.describe());
                texts.addAll(chain(catchThrowableOfType(BackendException.class,
                        () -> backend.write("k", Handle.NONE, bytes("a"), Duration.ofSeconds(5)))));
            }
            texts.addAll(chain(catchThrowableOfType(BackendException.class, () -> AzureBlobBackend.builder()
                    .endpoint(proxy.endpoint() + "/" + Azurite.ACCOUNT).sasToken(sas).container(container).build())));

            assertThat(proxy.requests()).as("the server received the SAS to echo")
                    .allSatisfy(r -> assertThat(r.path()).contains("sig="));
            String decoded = java.net.URLDecoder.decode(signature, StandardCharsets.UTF_8);
            assertThat(texts).hasSizeGreaterThan(3).allSatisfy(text -> assertThat(text)
                    .doesNotContain(signature, decoded, sas));
            assertThat(log.toString(StandardCharsets.UTF_8)).doesNotContain(signature, decoded);
        }
    }

    @Test
    void anUnreachableEndpointWithASasTokenCarriesNoSignatureInTheCauseChain() throws Exception {
        String sas = AzureTestSas.forContainer(azurite, azurite.newContainer("secrets"), "rcwd");
        String endpoint = "http://127.0.0.1:" + Azurite.freePort() + "/" + Azurite.ACCOUNT;
        List<String> texts = new ArrayList<>();
        texts.addAll(chain(catchThrowableOfType(BackendException.class, () -> AzureBlobBackend.builder()
                .endpoint(endpoint).sasToken(sas).container("hoplock").requestTimeout(Duration.ofSeconds(3)).build())));
        try (AzureBlobBackend backend = AzureBlobBackend.builder().endpoint(endpoint).sasToken(sas)
                .container("hoplock").requestTimeout(Duration.ofSeconds(3)).verifyOnBuild(false).build()) {
            texts.addAll(chain(catchThrowableOfType(BackendException.class,
                    () -> backend.write("k", Handle.NONE, bytes("a"), Duration.ofSeconds(3)))));
        }
        assertNoSas(texts, sas);
    }

    @Test
    void anUnreachableEndpointOfASasConnectionStringCarriesNoSignatureInTheCauseChain() throws Exception {
        String sas = AzureTestSas.forContainer(azurite, azurite.newContainer("secrets"), "rcwd");
        String connectionString = "BlobEndpoint=http://127.0.0.1:" + Azurite.freePort() + "/" + Azurite.ACCOUNT
                + ";SharedAccessSignature=" + sas;
        List<String> texts = chain(catchThrowableOfType(BackendException.class, () -> AzureBlobBackend.builder()
                .connectionString(connectionString).container("hoplock").requestTimeout(Duration.ofSeconds(3))
                .build()));
        assertNoSas(texts, sas);
    }

    /**
     * A SAS token pasted with its quotes: the request URL it makes is not a valid URI, and the URI parser's message
     * quotes the whole URL, signature included.
     */
    @Test
    void aSasTokenThatMakesAnInvalidUrlCarriesNoSignatureInTheCauseChain() throws Exception {
        String container = azurite.newContainer("secrets");
        String sas = AzureTestSas.forContainer(azurite, container, "rcwd");
        String quoted = "\"" + sas + "\"";
        BackendException e = catchThrowableOfType(BackendException.class, () -> AzureBlobBackend.builder()
                .endpoint(azurite.endpoint()).sasToken(quoted).container(container)
                .requestTimeout(Duration.ofSeconds(10)).build());
        assertNoSas(chain(e), sas);
        assertThat(e.getMessage()).contains(azurite.endpoint(), "not a valid URL", "without quotes or spaces");
        assertThat(e.getCause()).as("the cause names the failure, redacted").asString()
                .startsWith("java.lang.IllegalArgumentException: not a URI: Illegal character in query")
                .contains(azurite.endpoint() + "/" + container + "/.hoplock-probe").endsWith("?[redacted]");
    }

    private void assertNoSas(List<String> texts, String sas) {
        String signature = AzureTestSas.signature(sas);
        String decoded = java.net.URLDecoder.decode(signature, StandardCharsets.UTF_8);
        assertThat(texts).hasSizeGreaterThan(1).allSatisfy(text -> assertThat(text)
                .doesNotContain(signature, decoded, sas));
        assertThat(log.toString(StandardCharsets.UTF_8)).doesNotContain(signature, decoded);
    }

    /** Azure's answer to a request it could not authenticate, echoing what it was sent (as Azure's detail does). */
    private static Response echo(String raw) {
        String sent = raw.replace("&", "&amp;");
        String xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>AuthenticationFailed</Code><Message>Server"
                + " failed to authenticate the request. Make sure the value of Authorization header is formed"
                + " correctly including the signature. Request: " + sent + "\nRequestId:r-1</Message>"
                + "<AuthenticationErrorDetail>The MAC signature found in the HTTP request '" + sent + "' is not the"
                + " same as any computed signature.</AuthenticationErrorDetail></Error>";
        return new Response(403, java.util.Map.of("Content-Type", "application/xml", "x-ms-error-code",
                "AuthenticationFailed", "x-ms-request-id", "r-1"), xml.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> chain(Throwable e) {
        assertThat(e).as("an exception was expected").isNotNull();
        List<String> texts = new ArrayList<>();
        for (Throwable t = e; t != null; t = t.getCause()) {
            texts.add(String.valueOf(t.getMessage()));
            texts.add(t.toString());
            for (Throwable suppressed : t.getSuppressed()) {
                texts.add(String.valueOf(suppressed));
            }
        }
        return texts;
    }
}
