package kotlin.coroutines;

/**
 * Stands in for Kotlin's {@code kotlin.coroutines.Continuation} (kotlin-stdlib is not on the test classpath): the
 * Kotlin compiler gives every {@code suspend} function this type as its last JVM parameter, which is all the
 * {@code @LeaderOnly} start-up check looks at.
 */
public interface Continuation<T> {
}
