package dev.hoplock.spring.fencing;

import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.spring.LockContextHolder;
import dev.hoplock.spring.aop.WithLockAdvisor;
import dev.hoplock.spring.aop.WithLockAttributeSource;
import org.springframework.aop.Advisor;

import java.lang.reflect.Method;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Tokens from {@code @WithLock}: the fencing token of the lock the innermost {@code @WithLock} call on this thread
 * holds ({@link LockContextHolder}). It rises at every acquisition of that lock name, so any call of an older
 * acquisition is refused once a newer one has passed the fence. Use one lock name per fenced resource (tokens of
 * different names are not comparable). The holder is the lock's {@link LockHandle#owner() owner}.
 */
public final class WithLockTokenSource implements FencingTokenSource {

    private final WithLockAttributeSource gates;

    public WithLockTokenSource(WithLockAttributeSource gates) {
        this.gates = Objects.requireNonNull(gates, "gates");
    }

    @Override
    public OptionalLong currentToken() {
        return LockContextHolder.currentToken();
    }

    /** The owner id written into the lock record of the innermost {@code @WithLock} call; empty outside one. */
    @Override
    public String currentHolder() {
        return LockContextHolder.current().map(LockHandle::owner).orElse("");
    }

    @Override
    public boolean covers(Method method, Class<?> targetClass) {
        return gates.find(method, targetClass) != null;
    }

    @Override
    public boolean isTokenAdvisor(Advisor advisor) {
        return advisor instanceof WithLockAdvisor;
    }

    @Override
    public String describe() {
        return "@WithLock (the token of the lock the call holds)";
    }
}
