package dev.hoplock.core.ownership;

import dev.hoplock.core.election.LeaderScope;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/** The open {@link OwnershipClaim}s of one group: told when their key moves, and asked before an acknowledgement. */
final class ClaimBook {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ClaimBook.class);

    private final Set<Claim> open = ConcurrentHashMap.newKeySet();
    private final Runnable onClose;
    private volatile CompletableFuture<Void> drained = new CompletableFuture<>();

    ClaimBook(Runnable onClose) {
        this.onClose = onClose;
    }

    Claim open(OwnershipGroup group, String key, long token, LeaderScope scope, boolean interrupt) {
        Claim claim = new Claim(group, key, token, scope, interrupt, Thread.currentThread(), null);
        open.add(claim);
        return claim;
    }

    /**
     * A claim whose loss runs {@code onLoss} instead of interrupting (work not bound to a thread); the caller opens its
     * scope with a loss callback that calls {@link Claim#lose()}.
     */
    Claim open(OwnershipGroup group, String key, long token, LeaderScope scope, Runnable onLoss) {
        Claim claim = new Claim(group, key, token, scope, false, Thread.currentThread(), onLoss);
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
        /** Run once at the loss instead of an interrupt, under this claim's monitor, so never after close. */
        private final @Nullable Runnable onLoss;
        private boolean lost;
        private boolean closed;

        Claim(OwnershipGroup group, String key, long token, LeaderScope scope, boolean interrupt, Thread thread,
                @Nullable Runnable onLoss) {
            this.group = group;
            this.key = key;
            this.token = token;
            this.scope = scope;
            this.interrupt = interrupt;
            this.thread = thread;
            this.onLoss = onLoss;
        }

        synchronized void lose() {
            if (lost || closed) {
                return;
            }
            lost = true;
            if (interrupt) {
                thread.interrupt();
            }
            if (onLoss != null) {
                try {
                    onLoss.run();
                } catch (RuntimeException e) {
                    // As Term.end: the loss is told to the other claims and the engine goes on all the same.
                    log.warn("hoplock: the loss callback of a claim on key '{}' threw; the claim is lost all the same",
                            key, e);
                }
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
