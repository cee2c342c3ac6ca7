package dev.hoplock.spring.fencing;

import dev.hoplock.core.fencing.Fence;
import dev.hoplock.spring.internal.gate.GateAdvisor;
import org.springframework.core.Ordered;

import java.util.function.Supplier;

/**
 * The Spring AOP advisor behind {@link Fenced}.
 *
 * <h2>Order: inside the transaction</h2>
 * Its order is {@link Ordered#LOWEST_PRECEDENCE}, the same as the {@code @Transactional} advisor's default, and it is
 * registered after that advisor (the auto-configuration comes after Boot's transaction auto-configuration, and an
 * application's own {@code @EnableTransactionManagement} is registered before any auto-configuration); Spring sorts
 * advisors of equal order by registration, so the chain of a fenced method is:
 * <pre>
 *   @LeaderOnly (order 0: the gate, opens the leader scope, pushes the token)
 *     @Transactional (lowest precedence: begins the transaction, binds its connection)
 *       @Fenced (lowest precedence, registered later: checks the token on that connection)
 *         the method body
 * </pre>
 * The chain of every fenced bean is checked at start-up ({@link FencedMethodValidator}): a transaction advisor after
 * this one, or a token advisor after this one, fails the start. At call time the interceptor refuses to run without
 * an active transaction as a second line.
 */
public final class FencedAdvisor extends GateAdvisor {

    private static final long serialVersionUID = 1L;

    /**
     * @param fence  the fence, resolved at the first call
     * @param tokens where the token of a call comes from
     */
    public FencedAdvisor(Supplier<Fence> fence, FencingTokenSource tokens) {
        this(new FencedAttributeSource(), fence, tokens);
    }

    private FencedAdvisor(FencedAttributeSource resources, Supplier<Fence> fence, FencingTokenSource tokens) {
        super(resources, new FencedInterceptor(fence, tokens, resources), Ordered.LOWEST_PRECEDENCE);
    }
}
