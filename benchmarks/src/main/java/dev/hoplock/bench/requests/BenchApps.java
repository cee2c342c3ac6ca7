package dev.hoplock.bench.requests;

import co.elastic.clients.transport.rest5_client.low_level.Rest5Client;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.jdbc.InitializeSchema;
import dev.hoplock.jdbc.JdbcBackend;
import net.javacrumbs.shedlock.core.LockProvider;
import org.apache.hc.core5.http.HttpHost;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

import javax.sql.DataSource;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * The four applications of the backend-cost benchmark, as a user would write them: Spring Boot with auto-configuration
 * and {@code @Scheduled}, one instance per application context ({@code bench.instance} names it).
 */
final class BenchApps {

    private BenchApps() {
    }

    /** Shared by both: one scheduler thread (Boot's default) whose runs are timed. */
    @Configuration(proxyBeanMethods = false)
    static class TimedScheduling {
        @Bean
        ThreadPoolTaskScheduler taskScheduler(@Value("${bench.instance}") String instance) {
            ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
            scheduler.setPoolSize(1);
            scheduler.setThreadNamePrefix(instance + "-scheduling-");
            scheduler.setTaskDecorator(new TimingTaskDecorator(JobStats.of(instance)));
            return scheduler;
        }

        @Bean
        Jobs.ControlJob controlJob() {
            return new Jobs.ControlJob();
        }
    }

    /**
     * hoplock over S3: the starter's auto-configuration builds the S3 store around the application's {@link S3Client}
     * bean, which counts its requests. Properties: {@code hoplock.*} (backend s3, bucket, prefix, TTL).
     */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    @Import(TimedScheduling.class)
    static class HoplockApp {

        @Bean
        S3Client s3Client(@Value("${bench.s3.endpoint}") String endpoint, @Value("${bench.instance}") String instance) {
            return S3Client.builder()
                    .endpointOverride(URI.create(endpoint))
                    .forcePathStyle(true)
                    .region(Region.US_EAST_1)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("bench", "bench")))
                    .httpClientBuilder(UrlConnectionHttpClient.builder())
                    .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                    .overrideConfiguration(c -> c.addExecutionInterceptor(
                            new CountingS3Interceptor(RequestsBench.counter(instance))))
                    .build();
        }

        @Bean
        Jobs.HoplockJob hoplockJob() {
            return new Jobs.HoplockJob();
        }
    }

    /**
     * {@link HoplockApp} with {@code @WithLock} on the job instead of {@code @LeaderOnly}: the same S3 client and store;
     * the election still runs (the starter always has one), so its requests are counted too.
     */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    @Import(TimedScheduling.class)
    static class HoplockS3LockApp {

        @Bean
        S3Client s3Client(@Value("${bench.s3.endpoint}") String endpoint, @Value("${bench.instance}") String instance) {
            return new HoplockApp().s3Client(endpoint, instance);
        }

        @Bean
        Jobs.HoplockLockJob hoplockLockJob() {
            return new Jobs.HoplockLockJob();
        }
    }

    /**
     * hoplock over OpenSearch: the application has an Elasticsearch low-level client ({@link Rest5Client}, what Spring
     * Boot 4 configures from {@code spring.elasticsearch.uris}; built here so that an interceptor counts every HTTP
     * request it sends), and the starter's auto-configuration builds the Elasticsearch store around it
     * ({@code hoplock.backend=elasticsearch}, {@code hoplock.elasticsearch.index}), checks it at start and elects on
     * it, as it does for S3. Properties: {@code bench.es.endpoint}.
     */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    @Import(TimedScheduling.class)
    static class HoplockSearchApp {

        @Bean(destroyMethod = "close")
        Rest5Client rest5Client(@Value("${bench.es.endpoint}") String endpoint,
                @Value("${bench.instance}") String instance) throws URISyntaxException {
            RequestCounter counter = RequestsBench.counter(instance);
            return Rest5Client.builder(HttpHost.create(endpoint))
                    .setHttpClientConfigCallback(client -> client.addRequestInterceptorFirst(
                            (request, entity, context) -> counter.add("es." + request.getMethod())))
                    .build();
        }

        @Bean
        Jobs.HoplockJob hoplockJob() {
            return new Jobs.HoplockJob();
        }
    }

    /**
     * ShedLock over PostgreSQL, as its documentation configures it: {@code @EnableSchedulerLock},
     * {@link JdbcTemplateLockProvider} with database time, a pooled {@link DataSource}. The pool draws its connections
     * from a {@link CountingDataSource}. hoplock's auto-configuration is switched off ({@code hoplock.enabled=false}).
     */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    @EnableSchedulerLock(defaultLockAtMostFor = "PT10S")
    @Import(TimedScheduling.class)
    static class ShedlockApp {

        @Bean(destroyMethod = "close")
        HikariDataSource dataSource(@Value("${bench.jdbc.url}") String url, @Value("${bench.jdbc.user}") String user,
                @Value("${bench.jdbc.password:}") String password, @Value("${bench.instance}") String instance) {
            return countedPool(url, user, password, instance);
        }

        @Bean
        LockProvider lockProvider(DataSource dataSource, @Value("${bench.shedlock.table}") String table) {
            return new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
                    .withJdbcTemplate(new JdbcTemplate(dataSource))
                    .withTableName(table)
                    .usingDbTime()
                    .build());
        }

        @Bean
        Jobs.ShedlockJob shedlockJob() {
            return new Jobs.ShedlockJob();
        }
    }

    /**
     * hoplock over PostgreSQL: the application defines the store as a {@code Backend} bean, a {@link JdbcBackend} over
     * the same kind of counted HikariCP pool as {@link ShedlockApp}; the starter's auto-configuration backs off from
     * its own store and builds the election, the elector and the {@code @LeaderOnly} gate around it, as it does for
     * S3. The table is created by the benchmark before the contexts start ({@code bench.hoplock.table}).
     */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    @Import(TimedScheduling.class)
    static class HoplockJdbcApp {

        @Bean(destroyMethod = "close")
        HikariDataSource dataSource(@Value("${bench.jdbc.url}") String url, @Value("${bench.jdbc.user}") String user,
                @Value("${bench.jdbc.password:}") String password, @Value("${bench.instance}") String instance) {
            return countedPool(url, user, password, instance);
        }

        @Bean
        JdbcBackend hoplockBackend(DataSource dataSource, @Value("${bench.hoplock.table}") String table)
                throws BackendException {
            return JdbcBackend.builder(dataSource).table(table).initializeSchema(InitializeSchema.NEVER).build();
        }

        @Bean
        Jobs.HoplockJob hoplockJob() {
            return new Jobs.HoplockJob();
        }
    }

    /**
     * {@link HoplockJdbcApp} with {@code @WithLock} on the job instead of {@code @LeaderOnly}: the same store, pool and
     * table; the elections still run (the starter always has one), so their requests are counted too.
     */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    @Import(TimedScheduling.class)
    static class HoplockJdbcLockApp {

        @Bean(destroyMethod = "close")
        HikariDataSource dataSource(@Value("${bench.jdbc.url}") String url, @Value("${bench.jdbc.user}") String user,
                @Value("${bench.jdbc.password:}") String password, @Value("${bench.instance}") String instance) {
            return countedPool(url, user, password, instance);
        }

        @Bean
        JdbcBackend hoplockBackend(DataSource dataSource, @Value("${bench.hoplock.table}") String table)
                throws BackendException {
            return JdbcBackend.builder(dataSource).table(table).initializeSchema(InitializeSchema.NEVER).build();
        }

        @Bean
        Jobs.HoplockLockJob hoplockLockJob() {
            return new Jobs.HoplockLockJob();
        }
    }

    /** A HikariCP pool of 2 whose connections come from a {@link CountingDataSource} over PostgreSQL's driver. */
    private static HikariDataSource countedPool(String url, String user, String password, String instance) {
        PGSimpleDataSource driver = new PGSimpleDataSource();
        driver.setUrl(url);
        driver.setUser(user);
        if (!password.isEmpty()) {
            driver.setPassword(password);
        }
        HikariConfig config = new HikariConfig();
        config.setDataSource(new CountingDataSource(driver, RequestsBench.counter(instance)));
        config.setMaximumPoolSize(2);
        config.setPoolName(instance + "-pool");
        return new HikariDataSource(config);
    }
}
