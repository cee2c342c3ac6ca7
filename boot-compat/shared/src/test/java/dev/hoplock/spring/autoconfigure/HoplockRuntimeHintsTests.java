package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.actuate.ElectionDescriptor;
import dev.hoplock.spring.leader.LeaderOnly;
import dev.hoplock.spring.leader.OnNonLeader;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/** The runtime hints hoplock registers for Spring AOT and native images, and that Spring AOT finds them. */
class HoplockRuntimeHintsTests {

    private final RuntimeHints hints = registered();

    @Test
    void isListedInAotFactories() {
        assertThat(AotServices.factories(getClass().getClassLoader()).load(RuntimeHintsRegistrar.class))
                .hasAtLeastOneElementOfType(HoplockRuntimeHints.class);
    }

    @Test
    void includesTheJdbcDdlFilesAndEveryOtherHoplockResource() {
        for (String ddl : new String[] {"schema-postgresql.sql", "schema-mariadb.sql", "schema-h2.sql",
                "fence-postgresql.sql", "fence-mariadb.sql", "fence-h2.sql"}) {
            assertThat(RuntimeHintsPredicates.resource().forResource("META-INF/hoplock/jdbc/" + ddl)).accepts(hints);
        }
        assertThat(RuntimeHintsPredicates.resource().forResource("META-INF/hoplock/elasticsearch/mapping.json"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.resource().forResource("META-INF/other/schema.sql")).rejects(hints);
    }

    @Test
    void registersTheTypesHoplockReadsReflectively() {
        assertThat(RuntimeHintsPredicates.reflection().onType(LeaderOnly.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(OnNonLeader.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(ElectionDescriptor.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(ElectionProperties.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(HoplockProperties.class)).accepts(hints);
        boolean s3 = ClassUtils.isPresent(HoplockRuntimeHints.S3_BACKEND, getClass().getClassLoader());
        assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of(HoplockRuntimeHints.S3_BACKEND))
                .test(hints)).as("the S3 store's class, only when it is on the class path").isEqualTo(s3);
    }

    private static RuntimeHints registered() {
        RuntimeHints hints = new RuntimeHints();
        new HoplockRuntimeHints().registerHints(hints, HoplockRuntimeHintsTests.class.getClassLoader());
        return hints;
    }
}
