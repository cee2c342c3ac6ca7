package dev.hoplock.compat;

import dev.hoplock.core.election.Elector;
import dev.hoplock.nats.NatsBackend;
import dev.hoplock.nats.server.NatsServer;
import dev.hoplock.redis.RedisBackend;
import dev.hoplock.redis.server.RedisServer;
import dev.hoplock.spring.leader.HoplockElections;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The auto-configuration of the Redis and NATS stores, compiled from the shared sources against Spring Boot 3.5, in
 * the whole compatibility application on Boot 3.5.7: over a {@code redis-server} reached through the application's
 * Spring Data Redis 3.5 Lettuce connection factory, and over a {@code nats-server} from {@code hoplock.nats.url},
 * each started by its store module's test harness. The default election leads, the leader runs the
 * {@code @LeaderOnly} work, and the lease is in the store.
 */
class StoresOnBoot35Tests {

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    @Test
    void redisThroughTheApplicationsLettuceConnectionFactory() throws Exception {
        RedisServer server = RedisServer.start();
        opened.add(server);
        String prefix = "compat-" + UUID.randomUUID().toString().substring(0, 8) + ":";
        RedisStandaloneConfiguration where = new RedisStandaloneConfiguration("127.0.0.1", server.port());
        where.setDatabase(1);
        SpringApplicationBuilder application = new SpringApplicationBuilder(CompatApplication.class)
                .initializers(c -> ((GenericApplicationContext) c).registerBean(LettuceConnectionFactory.class,
                        () -> new LettuceConnectionFactory(where)));
        ConfigurableApplicationContext context = start(application, "--hoplock.backend=redis",
                "--hoplock.redis.prefix=" + prefix);
        assertThat(context.getBean(RedisBackend.class).describe()).contains(Integer.toString(server.port()));
        leadsAndWorks(context);
        assertThat(server.commandIn(1, "EXISTS", prefix + "default")).as("the lease is where the factory points")
                .isEqualTo(1L);
    }

    @Test
    void natsFromItsUrl() throws Exception {
        NatsServer server = NatsServer.startSingle("compat");
        opened.add(server);
        ConfigurableApplicationContext context = start(new SpringApplicationBuilder(CompatApplication.class),
                "--hoplock.backend=nats", "--hoplock.nats.url=" + server.url(), "--hoplock.nats.bucket=compat",
                "--hoplock.nats.create-bucket=true");
        assertThat(context.getBean(NatsBackend.class).bucket()).isEqualTo("compat");
        leadsAndWorks(context);
    }

    /** Starts the application with {@code args} as command-line arguments, which win over its application.properties. */
    private ConfigurableApplicationContext start(SpringApplicationBuilder builder, String... args) {
        ConfigurableApplicationContext context = builder.main(CompatApplication.class)
                .properties("hoplock.owner=compat", "hoplock.ttl=10s", "hoplock.renew=2s", "hoplock.poll=100ms")
                .run(args);
        opened.add(context);
        return context;
    }

    private static void leadsAndWorks(ConfigurableApplicationContext context) {
        Elector elector = context.getBean(HoplockElections.class).getDefault();
        await().atMost(Duration.ofSeconds(30)).until(elector::isLeader);
        assertThat(context.getBean(CompatApplication.GatedWork.class).work()).as("the leader runs the work")
                .isEqualTo(1);
    }
}
