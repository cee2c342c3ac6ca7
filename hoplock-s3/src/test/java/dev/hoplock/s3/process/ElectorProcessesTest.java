package dev.hoplock.s3.process;

import dev.hoplock.s3.server.S3MockExtension;
import dev.hoplock.s3.server.S3MockServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;

/** The {@link FailoverScenario} of three elector JVMs over S3Mock. */
@ExtendWith(S3MockExtension.class)
class ElectorProcessesTest {

    @Test
    void oneLeaderAtATimeWithTakeoverAfterKillAndHandoverOnStop(S3MockServer server) throws Exception {
        try (FailoverScenario scenario = new FailoverScenario()) {
            scenario.run("S3Mock", server.endpoint(), server.bucket(), Map.of());
        }
    }
}
