package dev.hoplock.s3.process;

import dev.hoplock.s3.server.CephRgw;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;

/**
 * The {@link FailoverScenario} of three elector JVMs over a real Ceph RADOS Gateway (run with {@code -Pceph}): the
 * electors verify the store at build (create and swap with bare ETags; DELETE not conditional, which releasing by PUT
 * never needs) and elect, fail over and hand over on it.
 */
@Tag("ceph")
@ExtendWith(CephRgw.Extension.class)
class CephRgwElectorProcessesTest {

    @Test
    void oneLeaderAtATimeWithTakeoverAfterKillAndHandoverOnStop(CephRgw rgw) throws Exception {
        try (FailoverScenario scenario = new FailoverScenario()) {
            scenario.run("Ceph RGW", rgw.endpoint(), rgw.bucket(),
                    Map.of(ElectorProcessMain.ACCESS_KEY_VARIABLE, rgw.accessKey(),
                            ElectorProcessMain.SECRET_KEY_VARIABLE, rgw.secretKey()));
        }
    }
}
