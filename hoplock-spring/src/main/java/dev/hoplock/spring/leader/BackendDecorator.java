package dev.hoplock.spring.leader;

import dev.hoplock.core.backend.Backend;

import java.util.Objects;

/**
 * Wraps the store of one election, for example to time or count its requests
 * ({@link dev.hoplock.spring.leader.MeteredBackend}). Every bean of this type is applied to every election's
 * backend, in {@link org.springframework.core.Ordered} order (the first decorator is the innermost wrapper), and, through
 * {@link #decorate(Primitive, String, Backend)}, to the store of the named locks and of the ownership group: a
 * decorator that only overrides {@link #decorate(String, Backend)} wraps elections only, as before.
 *
 * <p>A decorator must keep the {@link Backend} contract: it may observe calls, never change their outcome. It must
 * forward {@link Backend#verify()} and {@link Backend#describe()} too: the elector verifies the store through the
 * decorated backend before it campaigns, and the default {@code verify()} checks nothing.
 */
@FunctionalInterface
public interface BackendDecorator {

    /** The primitive a decorated store serves, as the {@code primitive} tag of meters names it. */
    enum Primitive {
        /** An election ({@code @LeaderOnly}, {@code HoplockElections}); the name is the election's. */
        ELECTION("election"),
        /** The named locks ({@code @WithLock}, the {@code Locks} bean); the name is {@code locks}. */
        LOCK("lock"),
        /** The per-key ownership group (membership and registry); the name is the group's. */
        OWNERSHIP("ownership");

        private final String tag;

        Primitive(String tag) {
            this.tag = tag;
        }

        /** The value of the {@code primitive} tag, for example {@code "lock"}. */
        public String tag() {
            return tag;
        }
    }

    /** Returns a backend for {@code election} that delegates to {@code backend}. */
    Backend decorate(String election, Backend backend);

    /**
     * Returns a backend for the {@code primitive} called {@code name} that delegates to {@code backend}. The default
     * decorates elections with {@link #decorate(String, Backend)} and leaves the other primitives' store as it is.
     */
    default Backend decorate(Primitive primitive, String name, Backend backend) {
        return primitive == Primitive.ELECTION ? decorate(name, backend) : backend;
    }

    /**
     * A decorator that wraps the store of every primitive (elections, the named locks, the ownership group) with
     * {@code wrapper}: {@link #decorate(String, Backend)} is {@link #decorate(Primitive, String, Backend)} for
     * {@link Primitive#ELECTION}. For example {@code BackendDecorator.of((primitive, name, backend) -> new
     * MeteredBackend(backend, registry, primitive, name))}.
     */
    static BackendDecorator of(EveryPrimitive wrapper) {
        Objects.requireNonNull(wrapper, "wrapper");
        return new BackendDecorator() {
            @Override
            public Backend decorate(String election, Backend backend) {
                return decorate(Primitive.ELECTION, election, backend);
            }

            @Override
            public Backend decorate(Primitive primitive, String name, Backend backend) {
                return wrapper.decorate(primitive, name, backend);
            }
        };
    }

    /** How {@link #of} wraps the store of each primitive; it keeps the {@link Backend} contract. */
    @FunctionalInterface
    interface EveryPrimitive {

        /** Returns a backend for the {@code primitive} called {@code name} that delegates to {@code backend}. */
        Backend decorate(Primitive primitive, String name, Backend backend);
    }

    /**
     * {@code backend} wrapped by every decorator of {@code decorators}, in their order (the first is the innermost
     * wrapper), for {@code primitive} called {@code name}.
     */
    static Backend applyAll(Iterable<? extends BackendDecorator> decorators, Primitive primitive, String name,
            Backend backend) {
        Backend decorated = backend;
        for (BackendDecorator decorator : decorators) {
            decorated = decorator.decorate(primitive, name, decorated);
        }
        return decorated;
    }
}
