package dev.hoplock.test.process;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@link StoreFigures} writes: both tests' keys in one file, sorted, read back as written. */
class StoreFiguresTest {

    private static final List<FailoverFigures.Summary> SUMMARIES = List.of(
            new FailoverFigures.Summary("kill", 3, 1800, 1900, 1700, 1900),
            new FailoverFigures.Summary("renewal", 3, 2100, 2150, 2050, 2150),
            new FailoverFigures.Summary("term", 3, 90, 120, 60, 120));

    @AfterEach
    void clearProperty() {
        System.clearProperty(StoreFigures.OUT);
    }

    @Test
    void failoverAndRequestsMergeIntoOneSortedFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sub/store-x.properties");
        System.setProperty(StoreFigures.OUT, file.toString());

        StoreFigures.requests("X", "x-server 1.0", Duration.ofSeconds(30),
                new RequestCount.Result(66, Duration.ofSeconds(60), 3958), "requests\\at a proxy: one = one call",
                Map.of("Get Item", 60L, "PUT", 6L), "1.50");
        StoreFigures.failover("X", "x-server 1.0", Duration.ofSeconds(2), 3, SUMMARIES, "0.50");

        Properties read = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            read.load(in);
        }
        assertThat(read.getProperty("store")).isEqualTo("X");
        assertThat(read.getProperty("server_version")).isEqualTo("x-server 1.0");
        assertThat(read.getProperty("ttl_ms")).isEqualTo("2000");
        assertThat(read.getProperty("renew_ms")).isEqualTo("666");
        assertThat(read.getProperty("poll_ms")).isEqualTo("133");
        assertThat(read.getProperty("reps")).isEqualTo("3");
        assertThat(read.getProperty("crash_p50_ms")).isEqualTo("1800");
        assertThat(read.getProperty("crash_since_write_min_ms")).isEqualTo("2050");
        assertThat(read.getProperty("graceful_p99_ms")).isEqualTo("120");
        assertThat(read.getProperty("graceful_n")).isEqualTo("3");
        assertThat(read.getProperty("failover_load_start")).isEqualTo("0.50");
        assertThat(read.getProperty("failover_load_end")).isNotBlank();
        assertThat(read.getProperty("requests")).isEqualTo("66");
        assertThat(read.getProperty("requests_per_hour")).isEqualTo("3958");
        assertThat(read.getProperty("requests_window_s")).isEqualTo("60");
        assertThat(read.getProperty("requests_ttl_ms")).isEqualTo("30000");
        assertThat(read.getProperty("requests_counted")).isEqualTo("requests\\at a proxy: one = one call");
        assertThat(read.getProperty("requests.Get_Item")).isEqualTo("60");
        assertThat(read.getProperty("requests.PUT")).isEqualTo("6");
        assertThat(read.getProperty("requests_load_start")).isEqualTo("1.50");

        List<String> keys = Files.readAllLines(file).stream().map(l -> l.substring(0, l.indexOf('='))).toList();
        assertThat(keys).isSorted().doesNotHaveDuplicates().hasSize(read.size());
    }
}
