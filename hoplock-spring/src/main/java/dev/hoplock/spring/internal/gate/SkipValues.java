package dev.hoplock.spring.internal.gate;

import org.jspecify.annotations.Nullable;

import java.lang.reflect.Array;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * The value a skipped gated call ({@code @LeaderOnly} on a non-leader, {@code @WithLock} whose lock is held) returns,
 * by declared return type: an empty {@code Optional}
 * ({@code OptionalInt}, ...), an empty immutable {@code List}/{@code Collection}/{@code Iterable}, {@code Set},
 * {@code SortedSet}/{@code NavigableSet}, {@code Map}, {@code SortedMap}/{@code NavigableMap}, an empty stream
 * (also {@code IntStream}, ...), an empty array, a {@code CompletableFuture} completed with {@code null} (for
 * {@code CompletableFuture}, {@code CompletionStage} and {@code Future}), and {@code null} for everything else,
 * {@code void} and concrete collection classes included. Primitive types have no skip value.
 */
public final class SkipValues {

    private SkipValues() {
    }

    /** Whether a call returning {@code type} can be skipped: every type but the primitive ones other than void. */
    public static boolean canSkip(Class<?> type) {
        return !type.isPrimitive() || type == void.class;
    }

    /**
     * The value for a skipped call returning {@code type}.
     *
     * @throws IllegalArgumentException for a primitive type other than void
     */
    public static @Nullable Object of(Class<?> type) {
        if (!canSkip(type)) {
            throw new IllegalArgumentException("a call returning " + type + " cannot be skipped");
        }
        if (type == Optional.class) {
            return Optional.empty();
        }
        if (type == OptionalInt.class) {
            return OptionalInt.empty();
        }
        if (type == OptionalLong.class) {
            return OptionalLong.empty();
        }
        if (type == OptionalDouble.class) {
            return OptionalDouble.empty();
        }
        if (type == List.class || type == Collection.class || type == Iterable.class) {
            return List.of();
        }
        if (type == Set.class) {
            return Set.of();
        }
        if (type == SortedSet.class || type == NavigableSet.class) {
            return Collections.emptyNavigableSet();
        }
        if (type == Map.class) {
            return Map.of();
        }
        if (type == SortedMap.class || type == NavigableMap.class) {
            return Collections.emptyNavigableMap();
        }
        if (type == Stream.class) {
            return Stream.empty();
        }
        if (type == IntStream.class) {
            return IntStream.empty();
        }
        if (type == LongStream.class) {
            return LongStream.empty();
        }
        if (type == DoubleStream.class) {
            return DoubleStream.empty();
        }
        if (type.isArray()) {
            return Array.newInstance(type.getComponentType(), 0);
        }
        if (type == CompletableFuture.class || type == CompletionStage.class || type == Future.class) {
            return CompletableFuture.completedFuture(null);
        }
        return null;
    }
}
