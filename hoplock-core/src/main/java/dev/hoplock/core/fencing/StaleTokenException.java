package dev.hoplock.core.fencing;

/**
 * A write refused because its fencing token is lower than one already recorded for the resource: the writer was
 * deposed and a newer leader has written since. Not retryable: the writer must stop, its lease is gone.
 *
 * <p>Guarantees: {@link #staleToken()} &le; {@link #currentToken()}; the message names the resource and both tokens.
 * The two are equal when the token was recorded by another holder ({@link #recordedHolder()}): the lease record was
 * deleted and re-created, so two holders carry the same token, and the one that checked later is refused (see
 * {@link Fence}).
 */
public class StaleTokenException extends FencingException {

    private static final long serialVersionUID = 1L;

    private final long staleToken;
    private final long currentToken;
    private final String recordedHolder;

    public StaleTokenException(String resource, long staleToken, long currentToken) {
        super(resource, "fenced write to '" + resource + "' refused: token " + staleToken
                + " is stale, a newer leader already wrote with token " + currentToken
                + "; this process lost its lease and must stop writing", null);
        if (staleToken >= currentToken) {
            throw new IllegalArgumentException("a stale token (" + staleToken + ") must be lower than the current one ("
                    + currentToken + ")");
        }
        this.staleToken = staleToken;
        this.currentToken = currentToken;
        this.recordedHolder = "";
    }

    /**
     * A write refused because {@code token} was recorded for {@code resource} by {@code recordedHolder}, not by
     * {@code holder}.
     */
    public StaleTokenException(String resource, long token, String holder, String recordedHolder) {
        super(resource, "fenced write to '" + resource + "' refused: token " + token + " was already recorded by"
                + " holder '" + recordedHolder + "', and this process is holder '" + holder + "'; two holders with one"
                + " token mean the lease record was deleted and re-created outside hoplock. Only the first holder to"
                + " write with a token keeps the resource; this process must stop writing (its writes pass again once"
                + " it holds a higher token)", null);
        if (recordedHolder.isEmpty() || recordedHolder.equals(holder)) {
            throw new IllegalArgumentException("the recorded holder must be another, named holder: '"
                    + recordedHolder + "'");
        }
        this.staleToken = token;
        this.currentToken = token;
        this.recordedHolder = recordedHolder;
    }

    /** The holder recorded with {@link #currentToken()} when it refused an equal token; empty otherwise. */
    public String recordedHolder() {
        return recordedHolder;
    }

    /** The token the refused write carried. */
    public long staleToken() {
        return staleToken;
    }

    /** The higher token already recorded for the resource. */
    public long currentToken() {
        return currentToken;
    }
}
