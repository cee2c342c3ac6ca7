package dev.hoplock.spring.observation;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import java.lang.reflect.Method;

/**
 * The context of a gate's observation: a {@code @LeaderOnly} call that ran ({@link HoplockObservations#LEADER_ONLY}),
 * a {@code @WithLock} call ({@link HoplockObservations#WITH_LOCK}) or its hold
 * ({@link HoplockObservations#WITH_LOCK_HOLD}). Never a lock's name, a key or an argument.
 *
 * <p>The {@code @WithLock} gate sets {@code outcome} and {@code lost} as key values on the context as the call goes on
 * ({@link #getLowCardinalityKeyValue(String)}); a convention reads them there at the stop.
 */
public final class GateObservationContext extends Observation.Context {

    private final String kind;
    private final Method method;
    private final String methodKey;
    private final @Nullable String election;

    /**
     * @param kind      the observation's name: {@link HoplockObservations#LEADER_ONLY},
     *                  {@link HoplockObservations#WITH_LOCK} or {@link HoplockObservations#WITH_LOCK_HOLD}
     * @param method    the gated method
     * @param methodKey {@code SimpleClassName.method}, as the gates' meters tag it
     * @param election  the election of a {@code @LeaderOnly} call ({@code ownership:GROUP} for a keyed one), else null
     */
    public GateObservationContext(String kind, Method method, String methodKey, @Nullable String election) {
        this.kind = kind;
        this.method = method;
        this.methodKey = methodKey;
        this.election = election;
    }

    /** {@link HoplockObservations#LEADER_ONLY}, {@link HoplockObservations#WITH_LOCK} or {@link HoplockObservations#WITH_LOCK_HOLD}. */
    public String getKind() {
        return kind;
    }

    /** The gated method. */
    public Method getMethod() {
        return method;
    }

    /** {@code SimpleClassName.method}. */
    public String getMethodKey() {
        return methodKey;
    }

    /** The election of a {@code @LeaderOnly} call; null for {@code @WithLock}. */
    public @Nullable String getElection() {
        return election;
    }
}
