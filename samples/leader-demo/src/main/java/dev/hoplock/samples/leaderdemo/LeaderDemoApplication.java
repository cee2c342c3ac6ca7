package dev.hoplock.samples.leaderdemo;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * Start three of these and only one logs its heartbeat: the leader. Stop it (Ctrl-C) and another takes over within
 * about one poll interval; kill it ({@code kill -9}) and another takes over after the TTL.
 *
 * <p>By default the lease lives in {@code ./.hoplock-demo} (filesystem store, processes on one machine). Run with
 * {@code --spring.profiles.active=s3} and the settings of {@code application-s3.yml} to elect over an S3 bucket.
 */
@SpringBootApplication
@EnableScheduling
public class LeaderDemoApplication {

    public static void main(String[] args) {
        SpringApplication.run(LeaderDemoApplication.class, args);
    }
}
