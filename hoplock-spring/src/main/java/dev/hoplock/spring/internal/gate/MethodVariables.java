package dev.hoplock.spring.internal.gate;

import org.jspecify.annotations.Nullable;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The start-up check that a gate's SpEL over a method's arguments (the key of {@code @LeaderOnly(key = ...)}, the
 * name template of {@code @WithLock}) refers only to variables a call will have: a parameter by name ({@code #orgId},
 * when the names are known), by position ({@code #p0}, {@code #a0}, below the parameter count), or
 * {@code #root}/{@code #this}. SpEL evaluates an unknown variable to null without an error, so without this check a
 * misspelled parameter gives every call the same key or lock name. One implementation for both gates.
 *
 * <p>Guarantees: {@link #problems} returns one phrase per unknown variable (empty when every variable is known),
 * each naming the variable and the method's parameters; stateless and thread-safe.
 */
public final class MethodVariables {

    private static final Pattern VARIABLE = Pattern.compile("#([A-Za-z_$][A-Za-z0-9_$]*)");
    private static final Pattern POSITIONAL = Pattern.compile("[pa]\\d+");
    private static final Pattern TEMPLATE_PART = Pattern.compile("#\\{(.*?)}");
    private static final Set<String> BUILT_IN = Set.of("root", "this");
    private static final ParameterNameDiscoverer NAMES = new DefaultParameterNameDiscoverer();

    private MethodVariables() {
    }

    /**
     * What is wrong with the variables of a SpEL expression over {@code method}'s arguments, one phrase each that
     * completes "the key expression '...' ..." ({@code "refers to #regoin, which is not a parameter of the method
     * (its parameters: [region])"}); empty when every variable is known.
     */
    public static List<String> problems(String expression, Method method) {
        List<String> problems = new ArrayList<>();
        @Nullable String[] parameters = NAMES.getParameterNames(method);
        Matcher matcher = VARIABLE.matcher(expression);
        while (matcher.find()) {
            String variable = matcher.group(1);
            if (BUILT_IN.contains(variable)) {
                continue;
            }
            if (POSITIONAL.matcher(variable).matches()) {
                int index = Integer.parseInt(variable.substring(1));
                if (index >= method.getParameterCount()) {
                    problems.add("refers to #" + variable + ", but the method has " + method.getParameterCount()
                            + " parameter(s)");
                }
                continue;
            }
            if (parameters == null) {
                problems.add("refers to #" + variable + ", but the parameter names of the method are not known"
                        + " (compile with -parameters, or write #p0, #p1, ...)");
            } else if (!Arrays.asList(parameters).contains(variable)) {
                problems.add("refers to #" + variable + ", which is not a parameter of the method (its parameters: "
                        + Arrays.toString(parameters) + ")");
            }
        }
        return problems;
    }

    /**
     * {@link #problems} for a SpEL template ({@code report-#{#region}}): only the parts inside {@code #{...}} are
     * expressions; the rest is literal text.
     */
    public static List<String> templateProblems(String template, Method method) {
        List<String> problems = new ArrayList<>();
        Matcher part = TEMPLATE_PART.matcher(template);
        while (part.find()) {
            problems.addAll(problems(part.group(1), method));
        }
        return problems;
    }
}
