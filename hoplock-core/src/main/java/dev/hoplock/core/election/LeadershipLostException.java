package dev.hoplock.core.election;

/** Thrown to leader work whose term has ended, or to a caller that needs leadership and does not have it. */
public class LeadershipLostException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public LeadershipLostException(String message) {
        super(message);
    }
}
