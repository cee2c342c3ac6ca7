package dev.hoplock.spring.lock;

import dev.hoplock.core.lock.NamedLocks;
import dev.hoplock.spring.internal.gate.GateAttributeSource;
import dev.hoplock.spring.internal.gate.MethodVariables;
import org.jspecify.annotations.Nullable;
import org.springframework.util.StringValueResolver;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Decides whether a method is {@code @WithLock} (on the method, or on a method it overrides or implements) and
 * resolves the annotation once: placeholders, the name template (whose variables must be parameters of the method:
 * {@link MethodVariables}), the durations. An annotation that cannot work still
 * gives an attribute, with its {@link WithLockAttribute#problem() problem}, so that {@link WithLockMethodValidator}
 * fails the start naming it. Results are cached per method and target class ({@link GateAttributeSource}).
 * Thread-safe.
 */
public final class WithLockAttributeSource extends GateAttributeSource<WithLockAttribute> {

    private final WhenLockHeld defaultMode;
    private final Duration defaultFairTurn;
    private final @Nullable StringValueResolver placeholders;

    /**
     * @param defaultMode  what DEFAULT means ({@code hoplock.locks.when-held}): SKIP or THROW
     * @param placeholders resolves {@code ${...}} in names and durations (the bean factory's), or null
     */
    public WithLockAttributeSource(WhenLockHeld defaultMode, @Nullable StringValueResolver placeholders) {
        this(defaultMode, Duration.ZERO, placeholders);
    }

    /**
     * @param defaultMode     what DEFAULT means ({@code hoplock.locks.when-held}): SKIP or THROW
     * @param defaultFairTurn the turn window of an annotation that does not set {@code fairTurn}
     *                        ({@code hoplock.locks.fair-turn}): zero (the default mode) or positive
     * @param placeholders    resolves {@code ${...}} in names and durations (the bean factory's), or null
     * @throws IllegalArgumentException for a negative {@code defaultFairTurn} or one above 7 days
     */
    public WithLockAttributeSource(WhenLockHeld defaultMode, Duration defaultFairTurn,
            @Nullable StringValueResolver placeholders) {
        super(Set.of(WithLock.class));
        Objects.requireNonNull(defaultMode, "defaultMode");
        Objects.requireNonNull(defaultFairTurn, "defaultFairTurn");
        if (defaultFairTurn.isNegative() || defaultFairTurn.compareTo(NamedLocks.MAX_TTL) > 0) {
            throw new IllegalArgumentException("the fair turn must be zero (no fair mode) or above zero and at most "
                    + NamedLocks.MAX_TTL.toDays() + " days, was " + defaultFairTurn);
        }
        this.defaultMode = defaultMode == WhenLockHeld.DEFAULT ? WhenLockHeld.SKIP : defaultMode;
        this.defaultFairTurn = defaultFairTurn;
        this.placeholders = placeholders;
    }

    @Override
    protected @Nullable WithLockAttribute compute(Method method, @Nullable Class<?> targetClass) {
        if (method.getDeclaringClass() == Object.class) {
            return null;
        }
        Method specific = specificMethod(method, userClass(method, targetClass));
        WithLock annotation = findAnnotation(specific, method, WithLock.class);
        if (annotation == null) {
            return null;
        }
        return attribute(annotation, specific, "@WithLock on " + describe(specific));
    }

    private WithLockAttribute attribute(WithLock annotation, Method method, String origin) {
        List<String> problems = new ArrayList<>();
        LockNameTemplate name = null;
        try {
            name = LockNameTemplate.parse(resolve(annotation.name()));
            if (!name.isLiteral()) {
                for (String unknown : MethodVariables.templateProblems(name.text(), method)) {
                    problems.add("the name template '" + name.text() + "' " + unknown);
                }
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            problems.add(e.getMessage());
        }
        Duration atMost = duration("lockAtMostFor", annotation.lockAtMostFor(), problems);
        Duration atLeast = duration("lockAtLeastFor", annotation.lockAtLeastFor(), problems);
        if (atMost != null && (atMost.isZero() || atMost.isNegative() || atMost.compareTo(NamedLocks.MAX_TTL) > 0)) {
            problems.add("lockAtMostFor (" + annotation.lockAtMostFor() + ") must be above zero and at most "
                    + NamedLocks.MAX_TTL.toDays() + " days");
        }
        if (atLeast != null && atLeast.isNegative()) {
            problems.add("lockAtLeastFor (" + annotation.lockAtLeastFor() + ") must not be negative");
        }
        if (atMost != null && atLeast != null && atLeast.compareTo(atMost) > 0) {
            problems.add("lockAtLeastFor (" + annotation.lockAtLeastFor() + ") is above lockAtMostFor ("
                    + annotation.lockAtMostFor() + "), so the lock could not be held that long");
        }
        Duration turn = fairTurn(annotation.fairTurn(), problems);
        WhenLockHeld mode = annotation.whenHeld() == WhenLockHeld.DEFAULT ? defaultMode : annotation.whenHeld();
        return new WithLockAttribute(name, atMost == null ? Duration.ofSeconds(1) : atMost,
                atLeast == null ? Duration.ZERO : atLeast, mode, annotation.interruptOnLoss(), origin,
                problems.isEmpty() ? null : String.join("; ", problems), turn);
    }

    /**
     * The fair mode's turn window: empty for {@code hoplock.locks.fair-turn}; otherwise a duration with its unit (a
     * bare number, read as milliseconds in the other attributes for ShedLock's sake, is refused here: a turn is
     * usually seconds), zero or positive, at most 7 days.
     */
    private Duration fairTurn(String text, List<String> problems) {
        String resolved = resolve(text).trim();
        if (resolved.isEmpty()) {
            return defaultFairTurn;
        }
        if (resolved.chars().allMatch(Character::isDigit) && !"0".equals(resolved)) {
            problems.add("fairTurn (" + text + ") has no unit; write one, for example " + resolved + "ms or "
                    + resolved + "s");
            return Duration.ZERO;
        }
        Duration turn;
        try {
            turn = LockDurations.parse(resolved);
        } catch (IllegalArgumentException e) {
            problems.add("fairTurn: " + e.getMessage() + "; 0s for no fair mode");
            return Duration.ZERO;
        }
        if (turn.isNegative() || turn.compareTo(NamedLocks.MAX_TTL) > 0) {
            problems.add("fairTurn (" + text + ") must be zero (no fair mode) or above zero and at most "
                    + NamedLocks.MAX_TTL.toDays() + " days");
            return Duration.ZERO;
        }
        return turn;
    }

    private @Nullable Duration duration(String attribute, String text, List<String> problems) {
        try {
            return LockDurations.parse(resolve(text));
        } catch (IllegalArgumentException | IllegalStateException e) {
            problems.add(attribute + ": " + e.getMessage());
            return null;
        }
    }

    private String resolve(String text) {
        if (placeholders == null || !text.contains("${")) {
            return text;
        }
        String resolved = placeholders.resolveStringValue(text);
        return resolved == null ? text : resolved;
    }
}
