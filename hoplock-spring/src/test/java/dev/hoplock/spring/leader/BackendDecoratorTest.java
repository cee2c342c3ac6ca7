package dev.hoplock.spring.leader;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.InMemoryBackend;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link BackendDecorator#of}: one wrapper for the store of every primitive, elections by either method. */
class BackendDecoratorTest {

    /** A store wrapped for one primitive's name. */
    private static final class Wrapped extends DelegatingBackend {
        final BackendDecorator.Primitive primitive;
        final String name;

        Wrapped(BackendDecorator.Primitive primitive, String name, Backend delegate) {
            super(delegate);
            this.primitive = primitive;
            this.name = name;
        }
    }

    @Test
    void wrapsTheStoreOfEveryPrimitive() {
        Backend store = new InMemoryBackend();
        BackendDecorator decorator = BackendDecorator.of(Wrapped::new);

        assertThat(decorator.decorate("nightly", store)).isInstanceOfSatisfying(Wrapped.class, wrapped -> {
            assertThat(wrapped.primitive).isEqualTo(BackendDecorator.Primitive.ELECTION);
            assertThat(wrapped.name).isEqualTo("nightly");
            assertThat(wrapped.delegate).isSameAs(store);
        });
        for (BackendDecorator.Primitive primitive : BackendDecorator.Primitive.values()) {
            assertThat(BackendDecorator.applyAll(List.of(decorator), primitive, "x", store))
                    .isInstanceOfSatisfying(Wrapped.class, wrapped -> {
                        assertThat(wrapped.primitive).isEqualTo(primitive);
                        assertThat(wrapped.name).isEqualTo("x");
                        assertThat(wrapped.delegate).isSameAs(store);
                    });
        }
    }
}
