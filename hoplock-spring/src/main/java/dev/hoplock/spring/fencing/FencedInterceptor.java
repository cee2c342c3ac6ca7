package dev.hoplock.spring.fencing;

import dev.hoplock.core.fencing.Fence;
import dev.hoplock.core.fencing.FencingException;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.support.AopUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

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

    private final Supplier<Fence> fenceSupplier;
    private final FencingTokenSource tokens;
    private final FencedMethods methods;
    private volatile Fence fence;

    FencedInterceptor(Supplier<Fence> fence, FencingTokenSource tokens, FencedMethods methods) {
        this.fenceSupplier = Objects.requireNonNull(fence, "fence");
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        this.methods = Objects.requireNonNull(methods, "methods");
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Method method = invocation.getMethod();
        Class<?> targetClass = invocation.getThis() == null ? null : AopUtils.getTargetClass(invocation.getThis());
        String resource = methods.cachedResource(method, targetClass);
        if (resource == null) {
            return invocation.proceed();
        }
        String where = FencedMethods.describe(method);
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
        fence().check(tokens.resource(resource), token.getAsLong(), tokens.currentHolder());
        return invocation.proceed();
    }

    private Fence fence() {
        Fence resolved = fence;
        if (resolved == null) {
            resolved = Objects.requireNonNull(fenceSupplier.get(), "no Fence bean");
            fence = resolved;
        }
        return resolved;
    }
}
