package dev.hoplock.compat.aot;

import dev.hoplock.compat.CompatApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;

import java.util.Arrays;

/**
 * Starts the {@link CompatApplication} with {@code hoplock.backend} set and the main class that names it. In AOT mode
 * Spring looks up the generated initializer by the main class's name ({@code <main>__ApplicationContextInitializer}),
 * so each store's main class finds the bean definitions that {@code process-aot} generated with that store chosen.
 */
final class AotStoreApplication {

    private AotStoreApplication() {
    }

    /** Runs the application as {@code main} over {@code backend}; {@code args} come after and may add settings. */
    static void run(Class<?> main, String backend, String[] args) {
        String[] arguments = Arrays.copyOf(new String[] {"--hoplock.backend=" + backend}, args.length + 1);
        System.arraycopy(args, 0, arguments, 1, args.length);
        new SpringApplicationBuilder(CompatApplication.class).main(main).run(arguments);
    }
}
