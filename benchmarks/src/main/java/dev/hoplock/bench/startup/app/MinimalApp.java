package dev.hoplock.bench.startup.app;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

import java.lang.management.ManagementFactory;

/**
 * The minimal Spring Boot application of the start-up benchmark: no web server, no beans of its own. Started with and
 * without {@code hoplock-spring-boot-starter} on the class path (and {@code hoplock.backend=filesystem} in both cases;
 * without the starter nothing reads it). Prints one line, then exits:
 * {@code startup run_ms=<SpringApplication.run> uptime_ms=<JVM uptime when ready> beans=<bean definitions>
 * hoplock=<whether hoplock's electors exist>}.
 */
@SpringBootApplication
public class MinimalApp {

    public static void main(String[] args) {
        long start = System.nanoTime();
        ConfigurableApplicationContext context = SpringApplication.run(MinimalApp.class, args);
        long runNanos = System.nanoTime() - start;
        long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
        System.out.println("startup run_ms=" + runNanos / 1e6 + " uptime_ms=" + uptime + " beans="
                + context.getBeanDefinitionCount() + " hoplock=" + context.containsBean("hoplockElections"));
        context.close();
        System.exit(0);
    }
}
