package dev.hoplock.core.fencing;

/**
 * A write refused because its fencing token is lower than one already recorded for the resource: the writer was
 * deposed and a newer leader has written since. Not retryable: the writer must stop, its lease is gone.
 *
 * <p>Guarantees: {@link #staleToken()} &lt; {@link #currentToken()}; the message names the resource and both tokens.
 */
public class StaleTokenException extends FencingException {

    private static final long serialVersionUID = 1L;

    private final long staleToken;
    private final long currentToken;

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
