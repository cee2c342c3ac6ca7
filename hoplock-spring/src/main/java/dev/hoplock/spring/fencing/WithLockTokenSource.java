package dev.hoplock.spring.fencing;

import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.spring.lock.LockContextHolder;
import dev.hoplock.spring.lock.WithLockAdvisor;
import dev.hoplock.spring.lock.WithLockAttributeSource;

import java.util.OptionalLong;

/**
 * Tokens from {@code @WithLock}: the fencing token of the lock the innermost {@code @WithLock} call on this thread
 * holds ({@link LockContextHolder}). It rises at every acquisition of that lock name, so any call of an older
 * acquisition is refused once a newer one has passed the fence. Use one lock name per fenced resource (tokens of
 * different names are not comparable). The holder is the lock's {@link LockHandle#owner() owner}.
 */
public final class WithLockTokenSource extends GateTokenSource {

    public WithLockTokenSource(WithLockAttributeSource gates) {
        super(gates, WithLockAdvisor.class, "@WithLock (the token of the lock the call holds)");
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
}
