package dev.hoplock.samples.readme;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * An application that existed before it added hoplock: one service with a {@code @LeaderOnly} method. Its tests show
 * what the README tells such an application to put in its test properties.
 */
@SpringBootApplication
@EnableScheduling
public class ExistingApplication {

    public static void main(String[] args) {
        SpringApplication.run(ExistingApplication.class, args);
    }
}
