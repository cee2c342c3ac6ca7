package dev.hoplock.spring.fencing;

import dev.hoplock.core.fencing.Fence;
import dev.hoplock.core.fencing.FencingException;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.function.SingletonSupplier;

import java.lang.reflect.Method;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The {@code @Fenced} check around one call: it needs an active transaction and a token on the thread, checks the
 * token for the resource, naming the token's holder ({@link FencingTokenSource#currentHolder()}), and only then lets
 * the method run. Every way the check cannot be made throws
 * {@link FencingException} before the method body, so nothing is written unchecked.
 */
final class FencedInterceptor implements MethodInterceptor {

    /** Looked up at the first fenced call, so that the advisor does not create the fence early. */
    private final SingletonSupplier<Fence> fence;
    private final FencingTokenSource tokens;
    private final FencedAttributeSource resources;

    FencedInterceptor(Supplier<Fence> fence, FencingTokenSource tokens, FencedAttributeSource resources) {
        Objects.requireNonNull(fence, "fence");
        this.fence = SingletonSupplier.of(() -> Objects.requireNonNull(fence.get(), "no Fence bean"));
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        this.resources = Objects.requireNonNull(resources, "resources");
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Method method = invocation.getMethod();
        Class<?> targetClass = invocation.getThis() == null ? null : AopUtils.getTargetClass(invocation.getThis());
        String resource = resources.find(method, targetClass);
        if (resource == null) {
            return invocation.proceed();
        }
        String where = FencedAttributeSource.simpleName(method);
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new FencingException(resource, where + " is @Fenced(\"" + resource + "\"), but no transaction is"
                    + " active when its fence check runs, so the check could not hold its lock until the method's"
                    + " writes commit; annotate it @Transactional (propagation REQUIRED, REQUIRES_NEW or MANDATORY)"
                    + " and keep the fence advisor inside the transaction advisor. The method did not run", null);
        }
        OptionalLong token = tokens.currentToken();
        if (token.isEmpty()) {
            throw new FencingException(resource, where + " is @Fenced(\"" + resource + "\"), but the call carries no"
                    + " fencing token: tokens come from " + tokens.describe() + ", and this call is not inside one."
                    + " The method did not run", null);
        }
        // The holder, so that an equal token of another holder (a lease record re-created after an outside delete)
        // is refused by a fence that records holders.
        fence.obtain().check(tokens.resource(resource), token.getAsLong(), tokens.currentHolder());
        return invocation.proceed();
    }
}
