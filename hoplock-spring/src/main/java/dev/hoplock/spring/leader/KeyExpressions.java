package dev.hoplock.spring.leader;

import dev.hoplock.spring.internal.gate.MethodVariables;
import org.jspecify.annotations.Nullable;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The key expressions of {@code @LeaderOnly(key = ...)}: parsed once per expression, evaluated over a call's arguments
 * ({@code #name} by parameter name, {@code #p0}/{@code #a0} by position), and checked at start-up
 * ({@link MethodVariables}, shared with {@code @WithLock}'s name templates).
 */
final class KeyExpressions {

    private final SpelExpressionParser parser = new SpelExpressionParser();
    private final ParameterNameDiscoverer names = new DefaultParameterNameDiscoverer();
    private final Map<String, Expression> parsed = new ConcurrentHashMap<>();

    /** The key of one call, as text. */
    String evaluate(String expression, Method method, @Nullable Object[] arguments, String origin) {
        Object value = parse(expression).getValue(new MethodBasedEvaluationContext(null, method, arguments, names));
        if (value == null) {
            throw new IllegalArgumentException(origin + ": the key expression '" + expression + "' gave null for"
                    + " arguments " + Arrays.toString(arguments) + "; a call needs a key to find its owner");
        }
        return value.toString();
    }

    /** What is wrong with {@code expression} on {@code method}; empty when it can be evaluated. */
    List<String> problems(String expression, Method method, String origin) {
        List<String> problems = new ArrayList<>();
        try {
            parse(expression);
        } catch (ParseException e) {
            problems.add(origin + " has a key expression '" + expression + "' that does not parse: " + e.getMessage());
            return problems;
        }
        for (String unknown : MethodVariables.problems(expression, method)) {
            problems.add(origin + " has a key expression '" + expression + "' that " + unknown);
        }
        return problems;
    }

    private Expression parse(String expression) {
        Expression known = parsed.get(expression);
        if (known == null) {
            known = parser.parseExpression(expression);
            parsed.putIfAbsent(expression, known);
        }
        return known;
    }
}
