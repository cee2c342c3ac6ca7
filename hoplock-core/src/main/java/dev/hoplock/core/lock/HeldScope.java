package dev.hoplock.core.lock;

import dev.hoplock.core.internal.lease.Scope;
import dev.hoplock.core.internal.lease.Term;
import dev.hoplock.core.lock.LockHandle;
import dev.hoplock.core.lock.LockScope;

import java.time.Duration;

/**
 * A {@link LockScope}: the elector's {@link Scope} of the acquisition's {@link Term}, so that a lock's work is told of
 * its loss (and interrupted) by exactly the mechanism leader work is.
 */
final class HeldScope implements LockScope {

    private final LockHold hold;
    private final Scope scope;

    HeldScope(LockHold hold, Scope scope) {
        this.hold = hold;
        this.scope = scope;
    }

    @Override
    public LockHandle lock() {
        return hold;
    }

    @Override
    public boolean wasLost() {
        return scope.wasLost();
    }

    @Override
    public boolean isHeld() {
        return scope.isLeading();
    }

    @Override
    public Duration timeLeft() {
        return scope.timeLeft();
    }

    @Override
    public void close() {
        scope.close();
    }
}
