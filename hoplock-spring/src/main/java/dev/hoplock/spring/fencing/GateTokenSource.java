package dev.hoplock.spring.fencing;

import dev.hoplock.spring.internal.gate.GateAttributeSource;
import org.springframework.aop.Advisor;

import java.lang.reflect.Method;
import java.util.Objects;

/**
 * The tokens of one gate ({@code @LeaderOnly}, {@code @WithLock}): a method is covered when the gate's attribute
 * source gates it, and the gate's advisor is the one that makes the token current. Subclasses say what the token,
 * its resource and its holder are.
 */
public abstract class GateTokenSource implements FencingTokenSource {

    private final GateAttributeSource<?> gates;
    private final Class<? extends Advisor> advisorType;
    private final String description;

    /**
     * @param gates       what the gate's annotation resolves to on each method
     * @param advisorType the gate's advisor
     * @param description what supplies the tokens, for messages
     */
    protected GateTokenSource(GateAttributeSource<?> gates, Class<? extends Advisor> advisorType, String description) {
        this.gates = Objects.requireNonNull(gates, "gates");
        this.advisorType = Objects.requireNonNull(advisorType, "advisorType");
        this.description = Objects.requireNonNull(description, "description");
    }

    @Override
    public final boolean covers(Method method, Class<?> targetClass) {
        return gates.find(method, targetClass) != null;
    }

    @Override
    public final boolean isTokenAdvisor(Advisor advisor) {
        return advisorType.isInstance(advisor);
    }

    @Override
    public final String describe() {
        return description;
    }
}
