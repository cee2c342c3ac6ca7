package dev.hoplock.core.ownership;

import dev.hoplock.core.election.LeaderScope;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/** The open {@link OwnershipClaim}s of one group: told when their key moves, and asked before an acknowledgement. */
final class ClaimBook {

    private final Set<Claim> open = ConcurrentHashMap.newKeySet();
    private final Runnable onClose;
    private volatile CompletableFuture<Void> drained = new CompletableFuture<>();

    ClaimBook(Runnable onClose) {
        this.onClose = onClose;
    }

    Claim open(OwnershipGroup group, String key, long token, LeaderScope scope, boolean interrupt) {
        Claim claim = new Claim(group, key, token, scope, interrupt, Thread.currentThread());
        open.add(claim);
        return claim;
    }

    /** A new epoch was adopted: every claim whose key is not owned with the same token at it has lost. */
    void adopted(EpochView view) {
        for (Claim claim : open) {
            if (view.acquiredAt(claim.key) != claim.token) {
                claim.lose();
            }
        }
    }

    /** Rule M5: true when every open claim's key is owned at {@code view} with the same token. */
    boolean mayAcknowledge(EpochView view) {
        for (Claim claim : open) {
            if (view.acquiredAt(claim.key) != claim.token) {
                return false;
            }
        }
        return true;
    }

    void loseAll() {
        open.forEach(Claim::lose);
    }

    int size() {
        return open.size();
    }

    /** Completes once no claim is open. */
    CompletableFuture<Void> drained() {
        CompletableFuture<Void> future = new CompletableFuture<>();
        drained = future;
        if (open.isEmpty()) {
            future.complete(null);
        }
        return future;
    }

    /** One claim. */
    final class Claim implements OwnershipClaim {
        private final OwnershipGroup group;
        private final String key;
        private final long token;
        private final LeaderScope scope;
        private final boolean interrupt;
        private final Thread thread;
        private boolean lost;
        private boolean closed;

        Claim(OwnershipGroup group, String key, long token, LeaderScope scope, boolean interrupt, Thread thread) {
            this.group = group;
            this.key = key;
            this.token = token;
            this.scope = scope;
            this.interrupt = interrupt;
            this.thread = thread;
        }

        synchronized void lose() {
            if (lost || closed) {
                return;
            }
            lost = true;
            if (interrupt) {
                thread.interrupt();
            }
        }

        @Override
        public String key() {
            return key;
        }

        @Override
        public long token() {
            return token;
        }

        @Override
        public boolean isValid() {
            synchronized (this) {
                if (lost || closed) {
                    return false;
                }
            }
            return scope.isLeading() && group.gate().tokenIfActing(key) == token;
        }

        @Override
        public Duration timeLeft() {
            return isValid() ? scope.timeLeft() : Duration.ZERO;
        }

        @Override
        public void close() {
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
            }
            scope.close();
            open.remove(this);
            if (open.isEmpty()) {
                drained.complete(null);
            }
            onClose.run();
        }

        @Override
        public String toString() {
            return "OwnershipClaim[" + key + ", token " + token + "]";
        }
    }
}
