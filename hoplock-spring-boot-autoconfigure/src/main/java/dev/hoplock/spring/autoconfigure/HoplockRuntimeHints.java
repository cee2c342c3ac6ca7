package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.actuate.ElectionDescriptor;
import dev.hoplock.spring.actuate.StoreRecords;
import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.leader.OnNonLeader;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;

import java.util.ArrayList;
import java.util.List;

/**
 * What an ahead-of-time compiled application (Spring AOT, GraalVM native image) needs from hoplock beyond what Spring
 * finds itself, registered through {@code META-INF/spring/aot.factories}:
 * <ul>
 *   <li>resources: everything under {@code META-INF/hoplock/} (the JDBC store's schema and fencing DDL files under
 *       {@code META-INF/hoplock/jdbc/}; every store module keeps the files it loads there);</li>
 *   <li>reflection: the {@code @LeaderOnly} annotation and its {@code OnNonLeader} values (read when the gate is
 *       resolved), the actuator endpoint's {@link ElectionDescriptor} and {@link StoreRecords} (serialised to JSON), every hoplock properties
 *       class ({@link KnownProperties#CLASSES}: the unknown-property check reads them reflectively, also those of a
 *       store that is absent) and the properties bound by name rather than through {@code @ConfigurationProperties}
 *       ({@link ElectionProperties}), the S3 store's class, whose presence the backend choice checks by name, and
 *       Spring Data Redis's Lettuce connection factory, whose presence the Redis store checks by name before it reads
 *       the application's.</li>
 * </ul>
 */
public final class HoplockRuntimeHints implements RuntimeHintsRegistrar {

    /** The resources every hoplock module loads from the class path. */
    static final String RESOURCES = "META-INF/hoplock/**";

    /** The S3 store's class, looked up by name when {@code hoplock.backend} is not set. */
    static final String S3_BACKEND = "dev.hoplock.s3.S3Backend";

    /** Spring Data Redis's Lettuce connection factory, looked up by name by the Redis store's configuration. */
    static final String LETTUCE_CONNECTION_FACTORY =
            "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory";

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.resources().registerPattern(RESOURCES);
        hints.reflection().registerType(LeaderOnly.class, MemberCategory.INVOKE_DECLARED_METHODS);
        hints.reflection().registerType(OnNonLeader.class, MemberCategory.INVOKE_PUBLIC_METHODS,
                MemberCategory.DECLARED_FIELDS);
        hints.reflection().registerTypeIfPresent(classLoader, S3_BACKEND);
        hints.reflection().registerTypeIfPresent(classLoader, LETTUCE_CONNECTION_FACTORY);
        new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), ElectionDescriptor.class,
                StoreRecords.class);
        List<Class<?>> bound = new ArrayList<>(KnownProperties.CLASSES);
        bound.add(ElectionProperties.class);
        BindableRuntimeHintsRegistrar.forTypes(bound.toArray(Class<?>[]::new)).registerHints(hints, classLoader);
    }
}
