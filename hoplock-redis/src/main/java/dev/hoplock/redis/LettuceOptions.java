package dev.hoplock.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.protocol.ProtocolVersion;

import java.time.Duration;

/**
 * The options of the Lettuce clients the backend creates, chosen for leases:
 * <ul>
 *   <li><b>At most once.</b> By default Lettuce reconnects by itself and sends again, after the reconnect, every
 *       command that was in flight when the connection dropped. A lease write sent again seconds later, after the
 *       elector gave up on it, is a late write; the protocol tolerates those, but a write that happens at most once
 *       is simpler to reason about. So a connection to one server (or to the primary Sentinel names) does not
 *       reconnect by itself: a dropped connection fails its commands and is closed, and the next call opens a new one
 *       within its own budget, at once rather than after Lettuce's growing reconnect delay (and, with Sentinel, asks
 *       the Sentinels for the primary again). A cluster's node connections are Lettuce's own and reconnect by
 *       themselves, but replay nothing ({@code replayFilter}). Commands issued while disconnected are refused at once
 *       ({@code REJECT_COMMANDS}) instead of waiting in a buffer.</li>
 *   <li><b>Bounded.</b> The connect timeout, and Lettuce's own command timeout at the request timeout as a backstop
 *       behind each call's {@link dev.hoplock.core.backend.CallBudget}.</li>
 *   <li><b>RESP2</b>, so the handshake is {@code AUTH} (allowed to every user) rather than {@code HELLO}.</li>
 * </ul>
 */
final class LettuceOptions {

    private LettuceOptions() {
    }

    static ClientOptions standalone(Duration connectTimeout, Duration requestTimeout) {
        return ClientOptions.builder()
                .autoReconnect(false)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .protocolVersion(ProtocolVersion.RESP2)
                .socketOptions(SocketOptions.builder().connectTimeout(connectTimeout).build())
                .timeoutOptions(TimeoutOptions.enabled(requestTimeout))
                .build();
    }

    static ClusterClientOptions cluster(Duration connectTimeout, Duration requestTimeout) {
        ClusterClientOptions.Builder options = ClusterClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .protocolVersion(ProtocolVersion.RESP2)
                .socketOptions(SocketOptions.builder().connectTimeout(connectTimeout).build())
                .timeoutOptions(TimeoutOptions.enabled(requestTimeout))
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enableAllAdaptiveRefreshTriggers()
                        .enablePeriodicRefresh(Duration.ofSeconds(30))
                        .build());
        options.replayFilter(command -> true);
        return options.build();
    }
}
