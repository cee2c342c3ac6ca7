package dev.hoplock.spring.leader;

import dev.hoplock.core.election.LeadershipLostException;

/**
 * Thrown by a {@link LeaderOnly} method in {@link OnNonLeader#THROW} mode when this instance does not lead the
 * election. The message names the election, the method and the holder last seen; it contains no secrets.
 */
public class NotLeaderException extends LeadershipLostException {

    private static final long serialVersionUID = 1L;

    private final String election;

    public NotLeaderException(String election, String message) {
        super(message);
        this.election = election;
    }

    /** The name of the election this instance does not lead. */
    public String election() {
        return election;
    }
}
