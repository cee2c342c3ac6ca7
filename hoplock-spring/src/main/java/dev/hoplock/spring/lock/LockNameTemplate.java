package dev.hoplock.spring.lock;

import dev.hoplock.core.backend.LeaseKeys;
import org.jspecify.annotations.Nullable;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.common.LiteralExpression;
import org.springframework.expression.common.TemplateParserContext;
import org.springframework.expression.spel.standard.SpelExpressionParser;

import java.lang.reflect.Method;

/**
 * The name of a {@code @WithLock} lock: a SpEL template ({@code invoice-#{#invoice.id}}) parsed once, at start-up, and
 * evaluated at each call over the method's arguments. A name without {@code #{...}} is literal and is checked against
 * the lock-name rule at start-up; an evaluated name is checked at each call.
 */
public final class LockNameTemplate {

    private static final SpelExpressionParser PARSER = new SpelExpressionParser();
    private static final ParameterNameDiscoverer PARAMETER_NAMES = new DefaultParameterNameDiscoverer();

    private final String text;
    private final Expression expression;

    private LockNameTemplate(String text, Expression expression) {
        this.text = text;
        this.expression = expression;
    }

    /**
     * @throws IllegalArgumentException when the template does not parse or a literal name breaks the lock-name rule
     */
    static LockNameTemplate parse(String text) {
        if (text.isBlank()) {
            throw new IllegalArgumentException("the lock name is empty");
        }
        Expression expression;
        try {
            expression = PARSER.parseExpression(text, new TemplateParserContext());
        } catch (ParseException e) {
            throw new IllegalArgumentException("the lock name '" + text + "' is not a valid SpEL template: "
                    + e.getMessage(), e);
        }
        if (expression instanceof LiteralExpression) {
            try {
                LeaseKeys.validate(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("the lock name '" + text + "' is invalid: " + e.getMessage(), e);
            }
        }
        return new LockNameTemplate(text, expression);
    }

    /** The template as written. */
    String text() {
        return text;
    }

    /** Whether the name is the same at every call. */
    boolean isLiteral() {
        return expression instanceof LiteralExpression;
    }

    /**
     * The lock name for one call.
     *
     * @throws IllegalStateException when the evaluation fails or gives no valid lock name
     */
    String evaluate(Method method, @Nullable Object[] arguments, @Nullable Object target, String origin) {
        if (expression instanceof LiteralExpression) {
            return text;
        }
        Object value;
        try {
            MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(
                    new Root(method, target), method, arguments, PARAMETER_NAMES);
            value = expression.getValue(context);
        } catch (EvaluationException e) {
            throw new IllegalStateException(origin + ": evaluating the lock name '" + text + "' failed: "
                    + e.getMessage() + ". The method did not run", e);
        }
        String name = value == null ? "" : value.toString();
        try {
            LeaseKeys.validate(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(origin + ": the lock name '" + text + "' gave '" + name + "', which is"
                    + " not a valid lock name: " + e.getMessage() + ". The method did not run", e);
        }
        return name;
    }

    /**
     * The root object of the evaluation.
     *
     * @param method the method called
     * @param target the bean it is called on
     */
    record Root(Method method, @Nullable Object target) {
    }
}
