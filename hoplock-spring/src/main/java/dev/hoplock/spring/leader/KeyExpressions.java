package dev.hoplock.spring.leader;

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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The key expressions of {@code @LeaderOnly(key = ...)}: parsed once per expression, evaluated over a call's arguments
 * ({@code #name} by parameter name, {@code #p0}/{@code #a0} by position), and checked at start-up.
 */
final class KeyExpressions {

    private static final Pattern VARIABLE = Pattern.compile("#([A-Za-z_$][A-Za-z0-9_$]*)");
    private static final Pattern POSITIONAL = Pattern.compile("[pa]\\d+");
    private static final Set<String> BUILT_IN = Set.of("root", "this");

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
        String[] parameters = names.getParameterNames(method);
        Matcher matcher = VARIABLE.matcher(expression);
        while (matcher.find()) {
            String variable = matcher.group(1);
            if (BUILT_IN.contains(variable)) {
                continue;
            }
            if (POSITIONAL.matcher(variable).matches()) {
                int index = Integer.parseInt(variable.substring(1));
                if (index >= method.getParameterCount()) {
                    problems.add(origin + " has a key expression '" + expression + "' that refers to #" + variable
                            + ", but the method has " + method.getParameterCount() + " parameter(s)");
                }
                continue;
            }
            if (parameters == null) {
                problems.add(origin + " has a key expression '" + expression + "' that refers to #" + variable
                        + ", but the parameter names of the method are not known (compile with -parameters, or"
                        + " write #p0, #p1, ...)");
            } else if (!Arrays.asList(parameters).contains(variable)) {
                problems.add(origin + " has a key expression '" + expression + "' that refers to #" + variable
                        + ", which is not a parameter of the method (its parameters: " + Arrays.toString(parameters)
                        + ")");
            }
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
