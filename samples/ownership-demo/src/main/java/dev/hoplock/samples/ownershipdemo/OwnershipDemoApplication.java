package dev.hoplock.samples.ownershipdemo;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/**
 * Start three of these (demo.sh) and each processes only its own tenants, about a third each. Stop one (Ctrl-C or
 * {@code kill}) and its tenants, and only those, move to the others within about one renew interval; kill one
 * ({@code kill -9}) and they move after its lease is judged ended (about 1.5 to 2.5 TTLs); start one again and it takes
 * back the tenants it wins. Every instance logs each membership change with the tenants it gained and lost, and the
 * tenants it processes.
 *
 * <p>Membership lives in {@code ./.hoplock-ownership-demo} (filesystem store, processes on one machine).
 */
@SpringBootApplication
@EnableScheduling
public class OwnershipDemoApplication {

    public static void main(String[] args) {
        SpringApplication.run(OwnershipDemoApplication.class, args);
    }
}
