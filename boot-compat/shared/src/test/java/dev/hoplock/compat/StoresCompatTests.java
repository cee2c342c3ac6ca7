package dev.hoplock.compat;

import com.azure.storage.blob.BlobContainerClient;
import dev.hoplock.azure.blob.AzureBlobBackend;
import dev.hoplock.azure.blob.emulator.Azurite;
import dev.hoplock.core.election.Elector;
import dev.hoplock.dynamodb.DynamoDbBackend;
import dev.hoplock.dynamodb.emulator.Dynalite;
import dev.hoplock.nats.NatsBackend;
import dev.hoplock.nats.server.NatsServer;
import dev.hoplock.redis.RedisBackend;
import dev.hoplock.redis.server.RedisServer;
import dev.hoplock.spring.leader.HoplockElections;
import io.nats.client.Connection;
import io.nats.client.Nats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole compatibility application over each store that came with its Spring Boot support later, on the Boot
 * version this module builds with (the same test source runs in every {@code boot-compat} module; the AOT module runs
 * it in AOT mode through {@code AotStoresTests}): Redis through the application's Spring Data Redis Lettuce connection
 * factory, NATS JetStream from {@code hoplock.nats.url}, DynamoDB through the application's {@link DynamoDbClient}
 * bean against dynalite, and Azure Blob Storage through the application's {@link BlobContainerClient} bean against
 * Azurite; each server or emulator is started by its store module's test harness (from the store's test-jar). For
 * each: the application uses that store, the default election leads, the leader runs the {@code @LeaderOnly} work,
 * and the lease record is in the store where the settings point.
 */
class StoresCompatTests {

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    /**
     * The class the application is started under for {@code backend}: the shared application itself; the AOT module
     * names the class that {@code spring-boot:process-aot} processed with that store chosen.
     */
    Class<?> mainClass(String backend) {
        return CompatApplication.class;
    }

    @Test
    void redisThroughTheApplicationsLettuceConnectionFactory() throws Exception {
        RedisServer server = RedisServer.start();
        opened.add(server);
        String prefix = "compat-" + unique() + ":";
        RedisStandaloneConfiguration where = new RedisStandaloneConfiguration("127.0.0.1", server.port());
        where.setDatabase(1);
        ConfigurableApplicationContext context = start("redis", bean(LettuceConnectionFactory.class,
                new LettuceConnectionFactory(where)), "--hoplock.redis.prefix=" + prefix);
        assertThat(context.getBean(RedisBackend.class).describe()).contains(Integer.toString(server.port()));
        leadsAndWorks(context);
        assertThat(server.commandIn(1, "EXISTS", prefix + "default")).as("the lease is where the factory points")
                .isEqualTo(1L);
    }

    @Test
    void natsFromItsUrl() throws Exception {
        NatsServer server = NatsServer.startSingle("compat");
        opened.add(server);
        ConfigurableApplicationContext context = start("nats", c -> { }, "--hoplock.nats.url=" + server.url(),
                "--hoplock.nats.bucket=compat", "--hoplock.nats.create-bucket=true");
        NatsBackend backend = context.getBean(NatsBackend.class);
        assertThat(backend.bucket()).isEqualTo("compat");
        leadsAndWorks(context);
        try (Connection connection = Nats.connect(server.url())) {
            assertThat(connection.keyValue("compat").get(backend.kvKey("default"))).as("the lease is in the bucket")
                    .isNotNull();
        }
    }

    @Test
    void dynamoDbThroughTheApplicationsClient() throws Exception {
        Dynalite dynalite = Dynalite.shared();
        String table = dynalite.newTable("compat");
        DynamoDbClient client = dynalite.client();
        opened.add(client);
        ConfigurableApplicationContext context = start("dynamodb", bean(DynamoDbClient.class, client),
                "--hoplock.dynamodb.table=" + table);
        DynamoDbBackend backend = context.getBean(DynamoDbBackend.class);
        assertThat(backend.tableName()).isEqualTo(table);
        leadsAndWorks(context);
        Map<String, AttributeValue> key = Map.of("lease_key", AttributeValue.fromS(backend.itemKey("default")));
        assertThat(client.getItem(get -> get.tableName(table).key(key).consistentRead(true)).hasItem())
                .as("the lease is in the table the application's client reaches").isTrue();
    }

    @Test
    void azureBlobThroughTheApplicationsContainerClient() throws Exception {
        Azurite azurite = Azurite.shared();
        BlobContainerClient container = azurite.serviceClient()
                .getBlobContainerClient(azurite.newContainer("compat"));
        ConfigurableApplicationContext context = start("azure-blob", bean(BlobContainerClient.class, container),
                "--hoplock.azure-blob.prefix=leases/");
        AzureBlobBackend backend = context.getBean(AzureBlobBackend.class);
        assertThat(backend.describe()).contains(container.getBlobContainerName());
        leadsAndWorks(context);
        assertThat(container.getBlobClient(backend.blobName("default")).exists())
                .as("the lease is a blob in the application's container").isTrue();
    }

    /** An initializer that registers {@code instance} as the application's own bean of {@code type}. */
    private static <T> ApplicationContextInitializer<ConfigurableApplicationContext> bean(Class<T> type, T instance) {
        return context -> ((GenericApplicationContext) context).registerBean(type, () -> instance);
    }

    /**
     * Starts the application over {@code backend} with the application's beans from {@code beans} and {@code args} as
     * command-line arguments, which win over its application.properties.
     */
    private ConfigurableApplicationContext start(String backend,
            ApplicationContextInitializer<ConfigurableApplicationContext> beans, String... args) {
        List<String> arguments = new ArrayList<>(List.of(args));
        arguments.add("--hoplock.backend=" + backend);
        ConfigurableApplicationContext context = new SpringApplicationBuilder(CompatApplication.class)
                .main(mainClass(backend)).initializers(beans)
                .properties("hoplock.owner=compat", "hoplock.ttl=10s", "hoplock.renew=2s", "hoplock.poll=100ms")
                .run(arguments.toArray(String[]::new));
        opened.add(context);
        return context;
    }

    private static void leadsAndWorks(ConfigurableApplicationContext context) {
        Elector elector = context.getBean(HoplockElections.class).getDefault();
        await().atMost(Duration.ofSeconds(30)).until(elector::isLeader);
        assertThat(context.getBean(CompatApplication.GatedWork.class).work()).as("the leader runs the work")
                .isEqualTo(1);
    }

    private static String unique() {
        return UUID.randomUUID().toString().substring(0, 8);
    }
}
