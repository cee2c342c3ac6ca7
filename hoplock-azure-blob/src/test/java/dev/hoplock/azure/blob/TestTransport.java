package dev.hoplock.azure.blob;

import com.azure.core.http.HttpClient;

import java.time.Duration;

/**
 * The backend's own HTTP transport for clients the tests create beside it (the emulator harness's), so that no HTTP
 * client provider needs to be on the test class path.
 */
public final class TestTransport {

    private TestTransport() {
    }

    /** A transport with a 2 s connect and a 10 s response timeout. */
    public static HttpClient jdk() {
        return new JdkTransport(Duration.ofSeconds(2), Duration.ofSeconds(10));
    }
}
