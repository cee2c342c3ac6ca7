package dev.hoplock.s3.server;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Ceph RADOS Gateway on 127.0.0.1 from {@code scripts/ceph-rgw.sh}, for the tests tagged {@code ceph} (run with
 * {@code -Pceph}). As a JUnit extension it gives test classes the one shared gateway (as a constructor or method
 * parameter): it starts the cluster with the script unless one already runs (then it is left running), and stops what
 * it started when the whole test run ends. The script installs Ceph when it is missing (as root).
 *
 * @param endpoint  the S3 endpoint, {@code http://127.0.0.1:7480}
 * @param accessKey the S3 user's access key id
 * @param secretKey the S3 user's secret key
 * @param bucket    a bucket that exists
 */
public record CephRgw(URI endpoint, String accessKey, String secretKey, String bucket) {

    /** The bucket the tests use. */
    public static final String BUCKET = "hoplock-test";

    @Override
    public String toString() {
        return "CephRgw[" + endpoint + ", bucket " + bucket + "]";
    }

    /**
     * A plain S3 client for this gateway (path style), for planting and inspecting objects. Checksums only where
     * required: RGW 16 answers 400 to the SDK's default streaming CRC32 uploads.
     */
    public S3Client rawClient() {
        return S3Client.builder().endpointOverride(endpoint).forcePathStyle(true).region(Region.US_EAST_1)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .httpClientBuilder(UrlConnectionHttpClient.builder()).build();
    }

    /** The JUnit extension; see {@link CephRgw}. */
    public static final class Extension implements BeforeAllCallback, ParameterResolver {

        @Override
        public void beforeAll(ExtensionContext context) {
            gateway(context);
        }

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == CephRgw.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            return gateway(context);
        }

        private static CephRgw gateway(ExtensionContext context) {
            return context.getRoot().getStore(ExtensionContext.Namespace.create(CephRgw.class))
                    .computeIfAbsent("gateway", key -> Running.start(), Running.class).gateway();
        }
    }

    /** The gateway, and whether this run started it (and so stops it when JUnit closes the root store). */
    private record Running(CephRgw gateway, boolean startedHere) implements AutoCloseable {

        static Running start() {
            boolean running = script("status", 60) == 0;
            if (!running && script("start", 1200) != 0) {
                throw new IllegalStateException("scripts/ceph-rgw.sh start failed; its output is in "
                        + log() + " and the daemons' logs under " + directory().resolve("log"));
            }
            CephRgw gateway = read(directory().resolve("s3.env"));
            try (S3Client client = gateway.rawClient()) {
                client.createBucket(create -> create.bucket(BUCKET));
            } catch (BucketAlreadyOwnedByYouException exists) {
                // Left by an earlier run against the same cluster.
            }
            return new Running(gateway, !running);
        }

        @Override
        public void close() {
            if (startedHere) {
                script("stop", 120);
            }
        }

        private static CephRgw read(Path env) {
            Map<String, String> values = new HashMap<>();
            try {
                for (String line : Files.readAllLines(env)) {
                    int eq = line.indexOf('=');
                    if (eq > 0) {
                        values.put(line.substring(0, eq), line.substring(eq + 1));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + env + " written by scripts/ceph-rgw.sh", e);
            }
            return new CephRgw(URI.create(values.get("CEPH_RGW_ENDPOINT")), values.get("CEPH_RGW_ACCESS_KEY"),
                    values.get("CEPH_RGW_SECRET_KEY"), BUCKET);
        }

        private static int script(String command, long timeoutSeconds) {
            try {
                Files.createDirectories(log().getParent());
                ProcessBuilder builder = new ProcessBuilder(List.of("bash", script().toString(), command))
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()));
                builder.environment().put("CEPH_RGW_DIR", directory().toString());
                Process process = builder.start();
                if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new IllegalStateException("scripts/ceph-rgw.sh " + command + " took over " + timeoutSeconds
                            + " s; output in " + log());
                }
                return process.exitValue();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while running scripts/ceph-rgw.sh " + command, e);
            }
        }

        private static Path script() {
            return Paths.get(System.getProperty("hoplock.ceph.script", "../scripts/ceph-rgw.sh")).toAbsolutePath();
        }

        private static Path directory() {
            String dir = System.getProperty("hoplock.ceph.dir", System.getenv("CEPH_RGW_DIR"));
            return dir == null ? Paths.get(System.getProperty("java.io.tmpdir"), "hoplock-ceph-rgw") : Paths.get(dir);
        }

        private static Path log() {
            return TestDirs.target().resolve("ceph-rgw").resolve("script.log");
        }
    }
}
